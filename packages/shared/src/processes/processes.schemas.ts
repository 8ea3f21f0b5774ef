import { z } from 'zod';

/**
 * A long job a user started, as listed in the header's system processes popover. `failing` and
 * `cancelling`: an import taking back the leads it published, after a broken file or a cancel.
 */
export const PROCESS_STATUSES = [
  'queued',
  'running',
  'resolving',
  'failing',
  'cancelling',
  'completed',
  'failed',
  'cancelled',
] as const;
/** The statuses of a job still under way. */
export const ACTIVE_PROCESS_STATUSES = ['queued', 'running', 'resolving', 'failing', 'cancelling'] as const;
export const ZProcessStatus = z.enum(PROCESS_STATUSES);
export type TProcessStatus = z.infer<typeof ZProcessStatus>;

export const ZProcess = z.object({
  id: z.number(),
  kind: z.string(),
  title: z.string(),
  status: ZProcessStatus,
  progress: z.number().min(0).max(100),
  message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProcess = z.infer<typeof ZProcess>;

export const ZProcessList = z.object({ data: z.array(ZProcess) });
