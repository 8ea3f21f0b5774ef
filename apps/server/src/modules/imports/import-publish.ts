import { processMessage } from '@herald/shared/processes/processes.schemas';
import { outcomeOf } from './import-outcome.ts';
import { startPublisher } from './import-publisher.ts';
import {
  advance,
  announceImport,
  type ImportRunnerDeps,
  type JobContext,
  REFRESH_STATISTICS_AFTER,
  refreshStatistics,
  type StagedColumn,
} from './import-run.ts';
import type { ImportFileRow } from './imports.repository.ts';

/** Publishing from `row.published_upto` on, by this run; progress is told once the parse has ended. */
export function publisher(
  deps: ImportRunnerDeps,
  row: ImportFileRow,
  columns: StagedColumn[],
  context: JobContext,
  table: string,
) {
  let total: number | undefined;
  let reportedAt: number | undefined;
  const p = startPublisher({
    staging: deps.staging,
    args: {
      table,
      importId: row.id,
      attempt: row.attempt,
      teamId: row.team_id,
      sourceId: row.source_id,
      listId: row.list_id,
      userId: row.user_id,
      status: row.black_list ? 'blacklisted' : 'active',
      filename: row.name,
      columns,
    },
    from: row.published_upto,
    chunks: deps.chunks(),
    concurrency: deps.publishConcurrency,
    signal: context.signal,
    onChunk: async (published) => {
      // While the file is still read, the parse tells the progress (the chunks commit quietly).
      if (total === undefined) return;
      // At most once a second, as the parse does: on the embedded database chunks are small and
      // many, and two writes a chunk for the progress would cost a tenth of their time.
      if (reportedAt !== undefined && Date.now() - reportedAt < 1000) return;
      reportedAt = Date.now();
      const progress = Math.min(99, Math.floor((published / Math.max(1, total)) * 99));
      const updated = await advance(deps, row, { sync_progress: progress, stage: 'resolve_duplicates' });
      await announceImport(deps.bus, updated, 'resolve_duplicates', progress);
      await context.reportProgress(progress, { phase: 'resolving' });
    },
  });
  return Object.assign(p, {
    /** From now on each chunk tells the progress, out of `rows` this run has to publish. */
    resolving(rows: number) {
      total = rows;
    },
  });
}

export type Publishing = ReturnType<typeof publisher>;

/**
 * The publish stage: ends the publish the parse started (or, for a run that resumes after the
 * parse, all of it), then completes the import, or fails it when nothing of the file could be kept.
 */
export async function publish(
  deps: ImportRunnerDeps,
  row: ImportFileRow,
  columns: StagedColumn[],
  context: JobContext,
  started?: Publishing,
) {
  const { staging } = deps;
  const table = row.staging_table as string;
  const publishing = started ?? publisher(deps, row, columns, context, table);
  try {
    const current = await advance(deps, row, { stage: 'start_resolve_duplicates' }, 'publish');
    await announceImport(deps.bus, current, 'start_resolve_duplicates', current.sync_progress);
    await context.reportProgress(current.sync_progress, { phase: 'resolving' });
    // The rows this run publishes: what the parse staged after the mark it started from.
    const rows = await staging.countAfter(table, publishing.from);
    if (!started) publishing.add(await staging.lastRow(table), rows);
    publishing.resolving(rows);
    await publishing.close();
  } catch (error) {
    // Nothing may go on publishing behind a run that has failed or been taken over.
    await publishing.stop();
    throw error;
  }
  const summary = await staging.summary(table, deps.readSlices());
  const nothing = outcomeOf({
    parsed: row.parsed_leads_count,
    failed: row.leads_failed,
    invalidPhones: row.invalid_format_phones_count,
    staged: summary.total,
  });
  if (nothing) {
    // Nothing to resume: the failed rows are kept, the empty staging is not.
    await staging.drop(table);
    throw nothing;
  }
  const current = await advance(
    deps,
    row,
    {
      stage: 'end_resolve_duplicates',
      sync_progress: 100,
      progress: 100,
      leads_total: summary.total - summary.duplicates,
      duplicates_resolved_count: summary.duplicates,
      leads_without_phone: summary.withoutPhone,
      finished_at: new Date(),
      staging_table: null,
    },
    'complete',
  );
  // The popover's line under a completed import: how many rows failed, and where (process-item.tsx).
  if (current.leads_failed > 0) {
    await context.reportProgress(100, {
      phase: 'resolving',
      message: processMessage.leadsFailed(current.leads_failed, row.id),
    });
  }
  await announceImport(deps.bus, current, 'end_resolve_duplicates', 100);
  // The import is complete whatever a listener does: its failure is the listener's to report.
  for (const listener of deps.completed) await listener(current).catch(() => undefined);
  await staging.drop(table);
  if (summary.total >= REFRESH_STATISTICS_AFTER) await refreshStatistics(deps, false);
}
