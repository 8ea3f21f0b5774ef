import { z } from 'zod';

/**
 * A long job a user started, as listed in the header's system processes popover. The status is
 * the same for every kind of job; where a kind has steps worth naming, it says which in `phase`.
 */
export const PROCESS_STATUSES = ['queued', 'running', 'paused', 'completed', 'failed', 'cancelled'] as const;
/** The statuses of a job still under way. */
export const ACTIVE_PROCESS_STATUSES = ['queued', 'running'] as const;
/**
 * The statuses of a job that has ended, which "Clear" takes out of the list. A `paused` job (a
 * campaign waiting for its owner, or for money) has neither ended nor is under way.
 */
export const FINISHED_PROCESS_STATUSES = ['completed', 'failed', 'cancelled'] as const;
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

/**
 * What a process says beside its status: a code the web translates, with the values it names.
 * Beside any failure's code (`import_file_broken`, `job_failed`, …), two name what a finished job
 * left behind: `leads_failed` (`count` rows refused by the import `import_id`) and `export_ready`
 * (the file of export `export_id`, to download).
 */
export const ZProcessMessage = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_]*$/),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type TProcessMessage = z.infer<typeof ZProcessMessage>;

const ZLeadsFailed = z.object({
  code: z.literal('leads_failed'),
  params: z.object({ count: z.number().int().positive(), import_id: z.number().int().positive() }),
});
const ZExportReady = z.object({
  code: z.literal('export_ready'),
  params: z.object({ export_id: z.number().int().positive() }),
});

/** The messages a job writes, built here so producers and the web agree on their params. */
export const processMessage = {
  leadsFailed: (count: number, importId: number): TProcessMessage => ({
    code: 'leads_failed',
    params: { count, import_id: importId },
  }),
  exportReady: (exportId: number): TProcessMessage => ({ code: 'export_ready', params: { export_id: exportId } }),
  /** A failure's code (translated by the web), with no params. */
  failure: (code: string): TProcessMessage => ({ code, params: {} }),
};

/** The import and count of a `leads_failed` message; null for any other message. */
export function leadsFailedOf(message: TProcessMessage | null) {
  const parsed = ZLeadsFailed.safeParse(message);
  return parsed.success ? { count: parsed.data.params.count, importId: parsed.data.params.import_id } : null;
}

/** The export of an `export_ready` message; null for any other message. */
export function exportReadyOf(message: TProcessMessage | null): number | null {
  const parsed = ZExportReady.safeParse(message);
  return parsed.success ? parsed.data.params.export_id : null;
}

export const ZProcess = z.object({
  id: z.number(),
  /** The job's name (`imports.run`, `segments.export`, …). */
  kind: z.string(),
  title: z.string(),
  status: ZProcessStatus,
  /** A step of a running job, one of its kind's `PROCESS_PHASES`; null when the kind names none. */
  phase: z.string().nullable(),
  progress: z.number().min(0).max(100),
  /** What it says beside its status (a failure's reason, what it left behind); null when nothing. */
  message: ZProcessMessage.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProcess = z.infer<typeof ZProcess>;

export const ZProcessList = z.object({ data: z.array(ZProcess) });
