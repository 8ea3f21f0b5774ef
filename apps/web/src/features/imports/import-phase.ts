import type { TImportFile, TImportStatusEvent } from '@herald/shared/imports/imports.schemas';

/** The spec's displayed states (Running, Resolving, Completed, Failed) plus an upload never run. */
export type ImportPhase = 'waiting' | 'running' | 'resolving' | 'completed' | 'failed';

type ImportState = Pick<TImportFile, 'status' | 'stage'>;

export function phaseOf({ status, stage }: ImportState): ImportPhase {
  switch (status) {
    case 'failed':
    case 'completed':
    case 'resolving':
      return status;
    case 'uploaded':
      return 'waiting';
    default:
      return stage === 'start_resolve_duplicates' || stage === 'resolve_duplicates' ? 'resolving' : 'running';
  }
}

export function isImportRunning(file: ImportState): boolean {
  const phase = phaseOf(file);
  return phase === 'running' || phase === 'resolving';
}

/** The bar of the current phase: parsing first, then duplicate resolution, each 0 to 100. */
export function progressOf(file: Pick<TImportFile, 'status' | 'stage' | 'progress' | 'sync_import'>): number {
  const phase = phaseOf(file);
  if (phase === 'completed') return 100;
  if (phase === 'resolving') return Math.floor(file.sync_import.progress);
  return Math.floor(file.progress);
}

/** An `ImportStatus` event folded into the import it is about (counters it lacks are kept). */
export function applyImportEvent(file: TImportFile, event: TImportStatusEvent): TImportFile {
  const resolving = event.stage !== 'parse' && event.stage !== 'parse_finished' && event.stage !== 'failed';
  return {
    ...file,
    status: event.status,
    stage: event.stage,
    progress: resolving ? file.progress : event.progress,
    parsed_leads_count: event.parsed_leads_count,
    leads_processed: event.leads_processed,
    error: event.error,
    processed: event.status === 'completed' || event.status === 'failed',
    sync_import: resolving ? { ...file.sync_import, progress: event.progress } : file.sync_import,
  };
}
