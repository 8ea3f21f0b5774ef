import type { TImportFile, TImportStatusEvent } from '@herald/shared/imports/imports.schemas';

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
    error: event.error,
    error_code: event.error_code,
    processed: event.status === 'completed' || event.status === 'failed' || event.status === 'cancelled',
    sync_import: resolving ? { ...file.sync_import, progress: event.progress } : file.sync_import,
  };
}
