import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TImportStage } from '@herald/shared/imports/imports.schemas';
import type { TProcessKindWithPhases, TProcessPhase } from '@herald/shared/processes/processes.schemas';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobContext as ProcessContext, JobOutcome } from '../../jobs/process-jobs.ts';
import { failureCodeOf, ImportFailure, listDeleted } from './import-failure.ts';
import { outcomeOf } from './import-outcome.ts';
import { type createImportStaging, SupersededError } from './import-staging.repository.ts';
import type { ImportFileRow, ImportsRepository } from './imports.repository.ts';
import { startPublisher } from './import-publisher.ts';
import { parseInWorker } from './parser/parse-client.ts';
import type { MappedColumn } from './parser/parse-protocol.ts';

/** A run's context: its process shows the import's phases (parsing, resolving, failing, cancelling). */
type JobContext = ProcessContext<TProcessPhase<'imports.run'>>;

/** A mapped column as staged: c0, c1, … hold these, in this order. */
type StagedColumn = MappedColumn & { name: string };

export const IMPORT_JOB = 'imports.run' satisfies TProcessKindWithPhases;
/** A run that has not shown life for this long is taken to be dead and is resumed. */
export const STALE_AFTER_SECONDS = 20;
/** Leads an import adds (or a cancel takes back) from which the lead tables are analyzed after it. */
const REFRESH_STATISTICS_AFTER = 10_000;
/** Failed rows kept per import for the history screen (all are counted). */
const FAILED_ROWS_KEPT = 100_000;

export interface ImportRunnerDeps {
  repo: ImportsRepository;
  staging: ReturnType<typeof createImportStaging>;
  bus: EventBus;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  ignoredFormats: (teamId: number) => Promise<string>;
  defaultCountry?: (teamId: number) => Promise<string>;
  filePath: (storedName: string) => string;
  /** Leads per publishing transaction: smaller on the embedded database so other queries interleave. */
  chunkSize: number;
  /** Chunks published at once, each on its own connection (1 on the embedded database). */
  publishConcurrency: number;
  batchSize: number;
  /** VACUUM after a cancel or a broken file took many leads back: the embedded database has no autovacuum. */
  vacuumAfterTakeBack: boolean;
  /** Leads the team may still import under its plan, this import's published ones included; null: no limit. */
  importAllowance: (teamId: number) => Promise<number | null>;
}

/**
 * The file could not be read, or holds more leads than the plan allows (as opposed to the database
 * failing): retrying will not help, and what the run published of it is taken back.
 */
class FileError extends ImportFailure {}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The reader's messages; whatever it throws is the file's fault, unless the run was stopped. */
async function* fileErrors<T>(source: AsyncGenerator<T>, signal: AbortSignal): AsyncGenerator<T> {
  try {
    for await (const m of source) yield m;
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FileError(failureCodeOf(error, 'import_file_broken'), messageOf(error));
  }
}

/** A value the database refuses to store (SQLSTATE class 22, data exception) is the file's fault too. */
async function dataErrors(write: Promise<void>) {
  try {
    await write;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw typeof code === 'string' && code.startsWith('22')
      ? new FileError('import_file_invalid_text', messageOf(error))
      : error;
  }
}

/** Tells the user who started an import where it stands (`ImportStatus`). */
export async function announceImport(bus: EventBus, row: ImportFileRow, stage: TImportStage, progress: number) {
  if (row.user_id === null) return;
  await bus.publish(
    { userId: row.user_id },
    {
      type: 'ImportStatus',
      payload: {
        id: row.id,
        name: row.name,
        stage,
        status: row.status,
        progress,
        parsed_leads_count: row.parsed_leads_count,
        leads_processed: row.leads_processed,
        leads_failed: row.leads_failed,
        error: row.error,
        error_code: row.error_code,
      },
    },
  );
}

/** The background run of one import: parse into staging, then publish in chunks (decision 009). */
export function createImportRunner(deps: ImportRunnerDeps) {
  const { repo, staging } = deps;

  const emit = (row: ImportFileRow, stage: TImportStage, progress: number) =>
    announceImport(deps.bus, row, stage, progress);

  /** Best effort, after the import has ended: a failure here must not turn it into a failed one. */
  async function refreshStatistics(vacuum: boolean) {
    await staging.refreshStatistics(vacuum).catch(() => {});
  }

  /** The columns as staged (c0, c1, …); from the mapping when the import recorded no layout. */
  async function stagedColumns(row: ImportFileRow): Promise<StagedColumn[]> {
    return row.staging_columns ?? mappedColumns(row);
  }

  /**
   * The columns as mapped. `strict`: a column mapped to an attribute deleted since dispatch (its
   * mapping is then empty but not ignored, migration 0011) fails the run, rather than importing the
   * file without it, or with no value at all, as a completed import.
   */
  async function mappedColumns(row: ImportFileRow, strict = false) {
    const [columns, attributes] = await Promise.all([repo.columns(row.team_id, row.id), deps.attributes(row.team_id)]);
    const byId = new Map(attributes.map((a) => [a.id, a]));
    const mapped = columns
      .filter((c) => !c.ignored)
      .map((c) => ({ c, a: c.lead_attribute_id ? byId.get(c.lead_attribute_id) : undefined }));
    if (strict && mapped.some(({ a }) => !a)) {
      throw new ImportFailure('import_attribute_deleted', 'An attribute of this import was deleted.');
    }
    return mapped.flatMap(({ c, a }) =>
      a ? [{ position: c.col_position, attributeId: a.id, type: a.type, name: a.name }] : [],
    );
  }

  /** Publishing from `row.published_upto` on, by this run; progress is told once the parse has ended. */
  function publisher(row: ImportFileRow, columns: StagedColumn[], context: JobContext, table: string) {
    let total: number | undefined;
    const p = startPublisher({
      staging,
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
      chunkSize: deps.chunkSize,
      concurrency: deps.publishConcurrency,
      signal: context.signal,
      onChunk: async (published) => {
        // While the file is still read, the parse tells the progress (the chunks commit quietly).
        if (total === undefined) return;
        const progress = Math.min(99, Math.floor((published / Math.max(1, total)) * 99));
        const updated = await repo.update(
          row.id,
          { sync_progress: progress, stage: 'resolve_duplicates' },
          { attempt: row.attempt },
        );
        if (!updated) throw new SupersededError();
        await emit(updated, 'resolve_duplicates', progress);
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

  /**
   * Reads the file into the staging table while the publisher moves committed batches into the
   * lead tables (decision 009, "Publishing while parsing"). A resumed run whose earlier attempt
   * had published keeps that staging table (its lead ids are in the leads) and stages only the
   * rows after the last one staged; otherwise it starts a fresh table.
   */
  async function parse(row: ImportFileRow, columns: StagedColumn[], context: JobContext) {
    const kept = row.staging_table && row.published_upto > 0 ? row.staging_table : null;
    const table = kept ?? staging.tableName(row.id, row.attempt);
    if (!kept) {
      await staging.drop(row.staging_table);
      await staging.create(table, columns.length);
    }
    const stagedThrough = kept ? await staging.lastRow(kept) : 0;
    let current = await repo.update(
      row.id,
      {
        staging_table: table,
        staging_columns: JSON.stringify(columns),
        stage: 'parse',
        progress: 0,
        // A run that resumes one cut short while rolling back reads the file afresh: no stale error.
        error: null,
        error_code: null,
        parsed_leads_count: 0,
        leads_failed: 0,
        ignored_phones_count: 0,
        invalid_format_phones_count: 0,
      },
      { attempt: row.attempt },
    );
    if (!current) throw new SupersededError();
    await emit(current, 'parse', 0);
    const size = Math.max(1, Number(row.size_bytes));
    let lastReport = 0;
    const job = {
      mode: 'full' as const,
      path: deps.filePath(row.stored_name),
      format: row.format,
      encoding: row.encoding,
      delimiter: row.delimiter,
      columns,
      ignoredFormats: await deps.ignoredFormats(row.team_id),
      defaultCountry: await deps.defaultCountry?.(row.team_id),
      batchSize: deps.batchSize,
      copyText: staging.copies,
      stagedThrough,
    };
    // Read once a run: the leads this import published before a restart are the plan's usage now,
    // and count against the file again below.
    const allowance = await deps.importAllowance(row.team_id);
    const limit = allowance === null ? null : allowance + row.leads_processed;
    const writer = staging.copies ? await staging.copyWriter(table, columns.length) : undefined;
    const publishing = publisher(current, columns, context, table);
    try {
      if (kept) publishing.add(stagedThrough, await staging.countAfter(kept, row.published_upto));
      for await (const m of fileErrors(parseInWorker(job, context.signal), context.signal)) {
        if (m.type !== 'batch' && m.type !== 'done') continue;
        if (limit !== null && m.counts.good > limit) {
          throw new FileError(
            'import_limit_reached',
            `The file has more leads than the plan allows to import: ${limit.toLocaleString('en')} at most.`,
          );
        }
        if (m.type === 'batch') {
          // Failed rows first: a run resumed after a crash here sends them again (kept once).
          if (m.failed.length > 0) await repo.addFailed(row.team_id, row.id, m.failed, FAILED_ROWS_KEPT);
          await dataErrors(
            writer && m.copy !== undefined ? writer.write(m.copy) : staging.insert(table, m.rowNos, m.cols),
          );
          publishing.add(m.lastRowNo, m.staged);
        }
        if (publishing.failure()) throw publishing.failure();
        const progress = m.type === 'done' ? 100 : Math.min(99, Math.floor((m.bytesRead / size) * 100));
        current = await repo.update(
          row.id,
          {
            progress,
            heartbeat_at: new Date(),
            parsed_leads_count: m.counts.parsed,
            leads_failed: m.counts.failed,
            ignored_phones_count: m.counts.ignoredPhones,
            invalid_format_phones_count: m.counts.invalidPhones,
            ...(m.type === 'done'
              ? { parsed_at: new Date(), staged_rows: m.counts.good, stage: 'parse_finished' as const }
              : {}),
          },
          { attempt: row.attempt },
        );
        if (!current) throw new SupersededError();
        if (m.type === 'done') {
          await emit(current, 'parse_finished', 100);
          await context.reportProgress(100, { phase: 'parsing' });
        } else if (Date.now() - lastReport > 1000) {
          lastReport = Date.now();
          await emit(current, 'parse', progress);
          await context.reportProgress(progress, { phase: 'parsing' });
        }
      }
    } catch (error) {
      await publishing.stop();
      throw error;
    } finally {
      await writer?.close();
    }
    return { row: current as ImportFileRow, publishing };
  }

  /** Ends the publish the parse started (or, for a run that resumes after the parse, all of it). */
  async function publish(
    row: ImportFileRow,
    columns: StagedColumn[],
    context: JobContext,
    started?: ReturnType<typeof publisher>,
  ) {
    const table = row.staging_table as string;
    const publishing = started ?? publisher(row, columns, context, table);
    try {
      const current = await repo.update(
        row.id,
        { status: 'resolving', stage: 'start_resolve_duplicates' },
        { attempt: row.attempt },
      );
      if (!current) throw new SupersededError();
      await emit(current, 'start_resolve_duplicates', current.sync_progress);
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
    const summary = await staging.summary(table);
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
    const current = await repo.update(
      row.id,
      {
        status: 'completed',
        stage: 'end_resolve_duplicates',
        sync_progress: 100,
        progress: 100,
        leads_total: summary.total - summary.duplicates,
        duplicates_resolved_count: summary.duplicates,
        finished_at: new Date(),
        staging_table: null,
      },
      { attempt: row.attempt },
    );
    if (!current) throw new SupersededError();
    // The popover's line under a completed import: how many rows failed, and where (process-item.tsx).
    if (current.leads_failed > 0) {
      await context.reportProgress(100, {
        phase: 'resolving',
        message: `leads_failed:${current.leads_failed}:${row.id}`,
      });
    }
    await emit(current, 'end_resolve_duplicates', 100);
    await staging.drop(table);
    if (summary.total >= REFRESH_STATISTICS_AFTER) await refreshStatistics(false);
  }

  /**
   * A take-back's step that shows its progress under `stage` in the import, and in its process as
   * Failing with the file's error or as Cancelling: "Running" with a climbing bar would read as
   * leads arriving while they are being taken away.
   */
  function shownAs(row: ImportFileRow, stage: 'rolling_back' | 'cancelling', context: JobContext) {
    const process =
      stage === 'rolling_back'
        ? { phase: 'failing' as const, message: row.error_code ?? undefined }
        : { phase: 'cancelling' as const };
    return async (progress: number) => {
      const current = await repo.update(row.id, { progress }, { attempt: row.attempt });
      if (!current) throw new SupersededError();
      await emit(current, stage, progress);
      await context.reportProgress(progress, process);
    };
  }

  /**
   * A file found unreadable after some of it was published: that part is taken back, so a failed
   * parse leaves no lead (decision 009). Shown as `rolling_back` with the file's error meanwhile: a
   * million-row file can take a minute to take back, and a frozen bar would look like a hang.
   */
  async function rollBack(row: ImportFileRow, error: FileError, context: JobContext) {
    const marked = await repo.update(
      row.id,
      { stage: 'rolling_back', progress: 0, error: error.message.slice(0, 500), error_code: error.code },
      { attempt: row.attempt },
    );
    if (!marked) throw new SupersededError();
    const step = shownAs(marked, 'rolling_back', context);
    await step(0);
    await takeBack(marked, context, step);
  }

  /**
   * Takes back what `row` has published, newest rows first, one chunk a transaction (a run killed
   * midway resumes where the mark stands); `step` after each with the progress (0–99).
   */
  async function takeBack(row: ImportFileRow, context: JobContext, step: (progress: number) => Promise<void>) {
    const columns = await stagedColumns(row);
    const total = row.published_upto;
    let hi = row.published_upto;
    while (row.staging_table && hi > 0) {
      if (context.signal.aborted) throw new Error('The import was stopped.');
      const lo = Math.max(0, hi - deps.chunkSize);
      await staging.unpublish({
        table: row.staging_table,
        importId: row.id,
        attempt: row.attempt,
        teamId: row.team_id,
        columns,
        lo,
        hi,
      });
      hi = lo;
      await step(Math.floor(((total - hi) / total) * 99));
    }
  }

  /** A cancelled import: takes back what it published, then drops its staging. */
  async function unwind(row: ImportFileRow, context: JobContext): Promise<JobOutcome> {
    const total = row.published_upto;
    const step = shownAs(row, 'cancelling', context);
    await step(0);
    await takeBack(row, context, step);
    // Every attempt's table: a cancel can land between a run making its table and recording it.
    for (let k = 1; k <= row.attempt; k++) await staging.drop(staging.tableName(row.id, k));
    const done = await repo.update(
      row.id,
      // Nothing of it is left, whatever each take-back found (leads deleted by hand before it are
      // not counted off by it).
      {
        status: 'cancelled',
        stage: 'cancelled',
        staging_table: null,
        heartbeat_at: null,
        finished_at: new Date(),
        leads_processed: 0,
      },
      { attempt: row.attempt },
    );
    if (!done) throw new SupersededError();
    await emit(done, 'cancelled', 100);
    if (total >= REFRESH_STATISTICS_AFTER) await refreshStatistics(deps.vacuumAfterTakeBack);
    return 'cancelled';
  }

  /**
   * A run that lost its import: to a newer run, which tells the process row, or to a delete of its
   * list, source or team (the import row goes with them). Nobody else would end the process then, and
   * the popover would show it running for good: it fails, and the import's staging tables go now.
   */
  async function supersededOrGone(importId: number): Promise<JobOutcome> {
    if (await repo.findByIdUnscoped(importId)) return 'superseded';
    // Every attempt's table: a run the delete cancelled first left its own to the take-back.
    await staging.dropAllOf(importId);
    throw listDeleted();
  }

  return {
    async run(data: { importId: number }, context: JobContext): Promise<JobOutcome> {
      const claimed = await repo.claim(data.importId);
      // Ended, taken by another run (which tells the process row), or deleted with its list.
      if (!claimed) return supersededOrGone(data.importId);
      await context.started();
      const row: ImportFileRow = claimed;
      try {
        if (row.status === 'cancelling') return await unwind(row, context);
        // Publishing goes on with the columns as staged, even if an attribute went meanwhile.
        const columns =
          row.parsed_at || row.published_upto > 0 ? await stagedColumns(row) : await mappedColumns(row, true);
        if (row.parsed_at && !row.staging_columns) {
          // Staged without a recorded layout: record it now, the Timeline names values by it.
          await repo.update(row.id, { staging_columns: JSON.stringify(columns) }, { attempt: row.attempt });
        }
        if (row.parsed_at) await publish(row, columns, context);
        else {
          const parsed = await parse(row, columns, context);
          await publish(parsed.row, columns, context, parsed.publishing);
        }
      } catch (error) {
        if (error instanceof SupersededError) return supersededOrGone(row.id);
        // Stopped with the process: the import (or its cancel) stays running, for the sweep to
        // resume (decision 009). A cancel the database failed is sent again by the sweep too.
        if (context.signal.aborted) return 'superseded';
        if (row.status === 'cancelling') throw error;
        const message = messageOf(error);
        let latest = await repo.findByIdUnscoped(row.id);
        let takenBack = 0;
        if (error instanceof FileError && latest && latest.attempt === row.attempt && latest.published_upto > 0) {
          takenBack = latest.published_upto;
          try {
            await rollBack(latest, error, context);
          } catch (cause) {
            // Taken over by a newer run, or gone with its list: as every other run that lost its import.
            if (cause instanceof SupersededError) {
              return supersededOrGone(row.id);
            }
            throw cause;
          }
          latest = await repo.findByIdUnscoped(row.id);
        }
        // Once something is published the staging is kept, so `PUT sync-import/{id}` can resume.
        const resumable = Boolean(latest?.parsed_at) || (latest?.published_upto ?? 0) > 0;
        const own = staging.tableName(row.id, row.attempt);
        const failed = await repo.update(
          row.id,
          {
            status: 'failed',
            stage: 'failed',
            error: message.slice(0, 500),
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
        if (!failed) return supersededOrGone(row.id);
        await emit(failed, 'failed', failed.progress);
        // The process's bar too: left at the take-back's last step, a red 99% reads as almost done.
        if (takenBack > 0) await context.reportProgress(0, { status: 'failed' });
        // The next import plans by these statistics (a new team's above all): analyzed after any
        // take-back (sampled, under a second), vacuumed as after a cancel of as many.
        if (takenBack > 0) {
          await refreshStatistics(deps.vacuumAfterTakeBack && takenBack >= REFRESH_STATISTICS_AFTER);
        }
        throw error;
      }
    },
  };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;
