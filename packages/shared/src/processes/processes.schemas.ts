import { z } from 'zod';

/**
 * A long job a user started, as listed in the header's system processes popover. The status is
 * the same for every kind of job; where a kind has steps worth naming, it says which in `phase`.
 */
export const PROCESS_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
/** The statuses of a job still under way. */
export const ACTIVE_PROCESS_STATUSES = ['queued', 'running'] as const;
export const ZProcessStatus = z.enum(PROCESS_STATUSES);
export type TProcessStatus = z.infer<typeof ZProcessStatus>;

/**
 * The phases a kind of process reports while it runs, which the web names per kind. An import:
 * `parsing` the file, `resolving` duplicates, or taking back what it published, `failing` (a broken
 * file, with its reason as the message) or `cancelling`.
 */
export const PROCESS_PHASES = {
  'imports.run': ['parsing', 'resolving', 'failing', 'cancelling'],
} as const;
export type TProcessKindWithPhases = keyof typeof PROCESS_PHASES;
export type TProcessPhase<K extends TProcessKindWithPhases = TProcessKindWithPhases> =
  (typeof PROCESS_PHASES)[K][number];

export const ZProcess = z.object({
  id: z.number(),
  /** The job's name (`imports.run`, `segments.export`, …). */
  kind: z.string(),
  title: z.string(),
  status: ZProcessStatus,
  /** A step of a running job, one of its kind's `PROCESS_PHASES`; null when the kind names none. */
  phase: z.string().nullable(),
  progress: z.number().min(0).max(100),
  message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProcess = z.infer<typeof ZProcess>;

export const ZProcessList = z.object({ data: z.array(ZProcess) });
