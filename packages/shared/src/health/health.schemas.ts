import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'down']),
  jobs: z.enum(['ok', 'down']),
  mode: z.enum(['embedded', 'postgres']),
  uptime_s: z.number(),
});
export type THealth = z.infer<typeof ZHealth>;
