import { processMessage } from '@herald/shared/processes/processes.schemas';
import type { JobOutcome } from '../../jobs/process-jobs.ts';
import {
  advance,
  announceImport,
  type FileError,
  type ImportRunnerDeps,
  type JobContext,
  REFRESH_STATISTICS_AFTER,
  refreshStatistics,
  stagedColumnsOf,
} from './import-run.ts';
import type { ImportFileRow } from './imports.repository.ts';

/**
 * A take-back's step that shows its progress under `stage` in the import, and in its process as
 * Failing with the file's error or as Cancelling: "Running" with a climbing bar would read as
 * leads arriving while they are being taken away.
 */
function shownAs(
  deps: ImportRunnerDeps,
  row: ImportFileRow,
  stage: 'rolling_back' | 'cancelling',
  context: JobContext,
) {
  const process =
    stage === 'rolling_back'
      ? { phase: 'failing' as const, message: row.error_code ? processMessage.failure(row.error_code) : undefined }
      : { phase: 'cancelling' as const };
  return async (progress: number) => {
    const current = await advance(deps, row, { progress });
    await announceImport(deps.bus, current, stage, progress);
    await context.reportProgress(progress, process);
  };
}

/**
 * Takes back what `row` has published, newest rows first, one chunk a transaction (a run killed
 * midway resumes where the mark stands); `step` after each with the progress (0–99).
 */
async function takeBack(
  deps: ImportRunnerDeps,
  row: ImportFileRow,
  context: JobContext,
  step: (progress: number) => Promise<void>,
) {
  const total = row.published_upto;
  let hi = row.published_upto;
  while (row.staging_table && hi > 0) {
    if (context.signal.aborted) throw new Error('The import was stopped.');
    const lo = Math.max(0, hi - deps.chunkSize);
    await deps.staging.unpublish({
      table: row.staging_table,
      importId: row.id,
      attempt: row.attempt,
      teamId: row.team_id,
      columns: stagedColumnsOf(row),
      lo,
      hi,
    });
    hi = lo;
    await step(Math.floor(((total - hi) / total) * 99));
  }
}

/**
 * A file found unreadable after some of it was published: that part is taken back, so a failed
 * parse leaves no lead (decision 009). Shown as `rolling_back` with the file's error meanwhile: a
 * million-row file can take a minute to take back, and a frozen bar would look like a hang.
 */
export async function rollBack(deps: ImportRunnerDeps, row: ImportFileRow, error: FileError, context: JobContext) {
  const marked = await advance(deps, row, {
    stage: 'rolling_back',
    progress: 0,
    error: error.message.slice(0, 500),
    error_code: error.code,
  });
  const step = shownAs(deps, marked, 'rolling_back', context);
  await step(0);
  await takeBack(deps, marked, context, step);
}

/** A cancelled import: takes back what it published, then drops its staging. */
export async function unwind(deps: ImportRunnerDeps, row: ImportFileRow, context: JobContext): Promise<JobOutcome> {
  const { staging } = deps;
  const total = row.published_upto;
  const step = shownAs(deps, row, 'cancelling', context);
  await step(0);
  await takeBack(deps, row, context, step);
  // Every attempt's table: a cancel can land between a run making its table and recording it.
  for (let k = 1; k <= row.attempt; k++) await staging.drop(staging.tableName(row.id, k));
  const done = await advance(
    deps,
    row,
    // Nothing of it is left, whatever each take-back found (leads deleted by hand before it are
    // not counted off by it).
    {
      stage: 'cancelled',
      staging_table: null,
      heartbeat_at: null,
      finished_at: new Date(),
      leads_processed: 0,
    },
    'takenBack',
  );
  await announceImport(deps.bus, done, 'cancelled', 100);
  if (total >= REFRESH_STATISTICS_AFTER) await refreshStatistics(deps, deps.vacuumAfterTakeBack);
  return 'cancelled';
}
