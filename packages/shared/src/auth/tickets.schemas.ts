import { z } from 'zod';

/**
 * A single-use ticket that stands for the session in one URL (the live-events stream, one export's
 * download) for a minute, so the session token itself never appears in a URL.
 */
export const ZAccessTicket = z.object({ ticket: z.string(), expires_at: z.string() });
export type TAccessTicket = z.infer<typeof ZAccessTicket>;
