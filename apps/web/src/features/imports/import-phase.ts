import { CANCELLABLE_RUNS, type TImportFile, type TImportStatusEvent } from '@herald/shared/imports/imports.schemas';

/**
 * The spec's displayed states (Running, Resolving, Completed, Failed), an upload never run, a
 * cancelled import (Cancelling while its leads are taken back), and a file found unreadable part-way
 * (Failing while the leads already published from it are taken back).
 */
export type ImportPhase =
  | 'waiting'
  | 'running'
  | 'resolving'
  | 'completed'
  | 'failing'
  | 'failed'
  | 'cancelling'
  | 'cancelled';

type ImportState = Pick<TImportFile, 'status' | 'stage'>;

export function phaseOf({ status, stage }: ImportState): ImportPhase {
  if (stage === 'rolling_back' && (status === 'queued' || status === 'parsing' || status === 'resolving')) {
    return 'failing';
  }
  switch (status) {
    case 'failed':
    case 'completed':
    case 'resolving':
    case 'cancelling':
    case 'cancelled':
      return status;
    case 'uploaded':
      return 'waiting';
    case 'cancel_queued':
      return 'cancelling';
    default:
      return stage === 'start_resolve_duplicates' || stage === 'resolve_duplicates' ? 'resolving' : 'running';
  }
}

export function isImportRunning(file: ImportState): boolean {
  const phase = phaseOf(file);
  return phase === 'running' || phase === 'resolving' || phase === 'failing' || phase === 'cancelling';
}

/** The bar of the current phase: parsing first, then duplicate resolution, each 0 to 100. */
export function progressOf(file: Pick<TImportFile, 'status' | 'stage' | 'progress' | 'sync_import'>): number {
  const phase = phaseOf(file);
  if (phase === 'completed' || phase === 'cancelled') return 100;
  if (phase === 'resolving') return Math.floor(file.sync_import.progress);
  return Math.floor(file.progress);
}

export interface ImportActions {
  /** An upload never run: its columns can still be mapped and the import run. */
  continue: boolean;
  resume: boolean;
  /** `discard` for an upload never run (nothing to take back), `cancel` otherwise. */
  cancel: 'cancel' | 'discard' | null;
}

/**
 * What a user may do with an import now. Cancel follows the server's `cancellable`, except while a
 * broken file is already being taken back (Failing): a cancel would only do the same again.
 */
export function importActionsOf(
  file: Pick<TImportFile, 'status' | 'stage' | 'cancellable' | 'resumable'>,
): ImportActions {
  const phase = phaseOf(file);
  return {
    continue: phase === 'waiting' && file.cancellable,
    resume: phase === 'failed' && file.resumable,
    cancel: !file.cancellable || phase === 'failing' ? null : phase === 'waiting' ? 'discard' : 'cancel',
  };
}

/** An `ImportStatus` event folded into the import it is about (counters it lacks are kept). */
export function applyImportEvent(file: TImportFile, event: TImportStatusEvent): TImportFile {
  const resolving =
    event.stage === 'start_resolve_duplicates' ||
    event.stage === 'resolve_duplicates' ||
    event.stage === 'end_resolve_duplicates';
  return {
    ...file,
    status: event.status,
    stage: event.stage,
    progress: resolving ? file.progress : event.progress,
    parsed_leads_count: event.parsed_leads_count,
    leads_processed: event.leads_processed,
    leads_failed: event.leads_failed ?? file.leads_failed,
    error: event.error,
    error_code: event.error_code,
    processed: event.status === 'completed' || event.status === 'failed' || event.status === 'cancelled',
    // The event does not say whether a failed import kept its staging: nothing is offered for it
    // until the import is read again (its end triggers that); a queued or running one can be cancelled.
    cancellable: (CANCELLABLE_RUNS as readonly string[]).includes(event.status),
    resumable: false,
    sync_import: resolving ? { ...file.sync_import, progress: event.progress } : file.sync_import,
  };
}

/**
 * The import as the answer to its dispatch says it is, unless its events have already told more:
 * a small import can end before that answer arrives, and the answer's "queued" would turn a
 * Completed modal back to Running until the next poll.
 */
export function dispatchedImport(cached: TImportFile | undefined, answered: TImportFile): TImportFile {
  return cached && cached.status !== 'uploaded' ? cached : answered;
}
