import type { JobOutcome } from '../../jobs/process-jobs.ts';
import { failureCodeOf, listDeleted } from './import-failure.ts';
import { mappedColumns, parse } from './import-parse.ts';
import { publish } from './import-publish.ts';
import {
  announceImport,
  FileError,
  type ImportRunnerDeps,
  type JobContext,
  messageOf,
  REFRESH_STATISTICS_AFTER,
  refreshStatistics,
  stagedColumnsOf,
} from './import-run.ts';
import { SupersededError } from './import-staging.repository.ts';
import { rollBack, unwind } from './import-take-back.ts';
import type { ImportFileRow } from './imports.repository.ts';

export { IMPORT_JOB } from '@herald/shared/jobs/imports.jobs';
/** A run that has not shown life for this long is taken to be dead and is resumed. */
export const STALE_AFTER_SECONDS = 20;

/**
 * A run that lost its import: to a newer run, which tells the process row, or to a delete of its
 * list, source or team (the import row goes with them). Nobody else would end the process then, and
 * the popover would show it running for good: it fails, and the import's staging tables go now.
 */
async function supersededOrGone(deps: ImportRunnerDeps, importId: number): Promise<JobOutcome> {
  if (await deps.repo.findByIdUnscoped(importId)) return 'superseded';
  // Every attempt's table: a run the delete cancelled first left its own to the take-back.
  await deps.staging.dropAllOf(importId);
  throw listDeleted();
}

/** Reads the file (unless an earlier run did), then publishes it. */
async function importFile(deps: ImportRunnerDeps, row: ImportFileRow, context: JobContext) {
  if (row.parsed_at) {
    // Publishing goes on with the columns as staged, even if an attribute went meanwhile.
    await publish(deps, row, stagedColumnsOf(row), context);
    return;
  }
  const columns = row.published_upto > 0 ? stagedColumnsOf(row) : await mappedColumns(deps, row);
  const parsed = await parse(deps, row, columns, context);
  await publish(deps, parsed.row, columns, context, parsed.publishing);
}

/**
 * A run that threw: a file found broken after some of it was published is taken back first; then
 * the import fails, keeping its staging when it can be resumed. Rethrows `error` for the process.
 */
async function failRun(deps: ImportRunnerDeps, row: ImportFileRow, error: unknown, context: JobContext) {
  const { repo, staging } = deps;
  let latest = await repo.findByIdUnscoped(row.id);
  let takenBack = 0;
  if (error instanceof FileError && latest && latest.attempt === row.attempt && latest.published_upto > 0) {
    takenBack = latest.published_upto;
    try {
      await rollBack(deps, latest, error, context);
    } catch (cause) {
      // Taken over by a newer run, or gone with its list: as every other run that lost its import.
      if (cause instanceof SupersededError) return supersededOrGone(deps, row.id);
      throw cause;
    }
    latest = await repo.findByIdUnscoped(row.id);
  }
  // Once something is published the staging is kept, so `PUT sync-import/{id}` can resume.
  const resumable = Boolean(latest?.parsed_at) || (latest?.published_upto ?? 0) > 0;
  const own = staging.tableName(row.id, row.attempt);
  const failed = await repo.move(
    row.id,
    'fail',
    {
      stage: 'failed',
      error: messageOf(error).slice(0, 500),
      error_code: failureCodeOf(error, 'import_failed'),
      finished_at: new Date(),
      // After a take-back nothing of the file is kept: its bar would otherwise stand at the
      // take-back's 99%, which reads as "almost imported"; nor does a lead of it count.
      ...(takenBack > 0 ? { progress: 0, leads_processed: 0 } : {}),
      ...(resumable ? {} : { staging_table: null }),
    },
    { attempt: row.attempt },
  );
  if (!resumable) {
    // This run's table and the one it kept, unless a newer run (a cancel) has taken it over.
    for (const t of new Set([own, latest?.staging_table])) {
      if (t && (failed || latest?.staging_table !== t)) await staging.drop(t);
    }
  }
  // Another run owns the import now (this one was given up for dead, or cancelled), or it is gone.
  if (!failed) return supersededOrGone(deps, row.id);
  await announceImport(deps.bus, failed, 'failed', failed.progress);
  // The process's bar too: left at the take-back's last step, a red 99% reads as almost done.
  if (takenBack > 0) await context.reportProgress(0, { status: 'failed' });
  // The next import plans by these statistics (a new team's above all): analyzed after any
  // take-back (sampled, under a second), vacuumed as after a cancel of as many.
  if (takenBack > 0) {
    await refreshStatistics(deps, deps.vacuumAfterTakeBack && takenBack >= REFRESH_STATISTICS_AFTER);
  }
  throw error;
}

/** The background run of one import: parse into staging, then publish in chunks (decision 009). */
export function createImportRunner(deps: ImportRunnerDeps) {
  return {
    async run(data: { importId: number }, context: JobContext): Promise<JobOutcome> {
      const row = await deps.repo.claim(data.importId);
      // Ended, taken by another run (which tells the process row), or deleted with its list.
      if (!row) return supersededOrGone(deps, data.importId);
      await context.started();
      try {
        if (row.status === 'cancelling') return await unwind(deps, row, context);
        await importFile(deps, row, context);
      } catch (error) {
        if (error instanceof SupersededError) return supersededOrGone(deps, row.id);
        // Stopped with the process: the import (or its cancel) stays running, for the sweep to
        // resume (decision 009). A cancel the database failed is sent again by the sweep too.
        if (context.signal.aborted) return 'superseded';
        if (row.status === 'cancelling') throw error;
        return failRun(deps, row, error, context);
      }
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
