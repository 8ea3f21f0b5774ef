import type { TImportStatus } from '@herald/shared/imports/imports.schemas';

/**
 * Every move of an import's `status`, by the event that makes it: from each status it may start
 * at, to where it goes. The runner and the repository change a status only through these, so
 * this table is the whole of what a status change can mean.
 */
export const IMPORT_MOVES = {
  /** Match Format done, the run asked for. */
  dispatch: { uploaded: ['queued'] },
  /** A run takes it: to read the file, to publish what was read, or to take back a cancelled one. */
  claim: { queued: ['parsing', 'resolving'], cancel_queued: ['cancelling'] },
  /** The parse has ended (or had ended before a resume): the rest is publishing. */
  publish: { parsing: ['resolving'], resolving: ['resolving'] },
  complete: { resolving: ['completed'] },
  fail: { parsing: ['failed'], resolving: ['failed'] },
  /** `PUT sync-import/{id}`: a failed import that kept its staging goes on. */
  resume: { failed: ['queued'] },
  /** One never run ends at once. */
  cancel: { uploaded: ['cancelled'] },
  /** One started (or failed but resumable) waits for a run that takes back what it published. */
  cancelRun: {
    queued: ['cancel_queued'],
    parsing: ['cancel_queued'],
    resolving: ['cancel_queued'],
    failed: ['cancel_queued'],
  },
  /** What a cancelled import had published is taken back. */
  takenBack: { cancelling: ['cancelled'] },
  /** Its run died with its process: it waits for a run again. */
  orphan: { parsing: ['queued'], resolving: ['queued'], cancelling: ['cancel_queued'] },
  /** An upload left at Match Format for too long. */
  expire: { uploaded: ['cancelled'] },
} as const satisfies Record<string, Partial<Record<TImportStatus, readonly TImportStatus[]>>>;

export type ImportEvent = keyof typeof IMPORT_MOVES;

/** The statuses `event` moves an import from. */
export function fromOf(event: ImportEvent): TImportStatus[] {
  return Object.keys(IMPORT_MOVES[event]) as TImportStatus[];
}

export function canMove(from: TImportStatus, to: TImportStatus): boolean {
  return Object.values(IMPORT_MOVES).some((moves) =>
    ((moves as Partial<Record<TImportStatus, readonly TImportStatus[]>>)[from] ?? []).includes(to),
  );
}

/**
 * Where `event` takes an import in `row.status`; a claim goes to publishing when the file was read
 * before. Throws on a move the table does not allow: a caller's bug, never the user's.
 */
export function transition(row: { status: TImportStatus; parsed_at?: Date | null }, event: ImportEvent): TImportStatus {
  const targets = (IMPORT_MOVES[event] as Partial<Record<TImportStatus, readonly TImportStatus[]>>)[row.status];
  if (!targets) throw new Error(`An import in ${row.status} cannot ${event}.`);
  if (event === 'claim' && row.status === 'queued') return row.parsed_at ? 'resolving' : 'parsing';
  return targets[0];
}

/** The one status `event` leads to, for a write that sets it wherever it starts from. */
export function targetOf(event: Exclude<ImportEvent, 'claim' | 'orphan'>): TImportStatus {
  const [to] = Object.values(IMPORT_MOVES[event] as Record<string, readonly TImportStatus[]>)[0];
  return to;
}
