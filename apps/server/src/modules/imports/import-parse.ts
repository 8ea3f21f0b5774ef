import { failureCodeOf, ImportFailure } from './import-failure.ts';
import { publisher } from './import-publish.ts';
import {
  advance,
  announceImport,
  FileError,
  type ImportRunnerDeps,
  type JobContext,
  messageOf,
  type StagedColumn,
} from './import-run.ts';
import type { ImportFileRow } from './imports.repository.ts';
import { parseInWorker } from './parser/parse-client.ts';

/** Failed rows kept per import for the history screen (all are counted). */
const FAILED_ROWS_KEPT = 100_000;

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

/**
 * The columns as mapped, for a run that reads the file. A column mapped to an attribute deleted
 * since dispatch (its mapping is then empty but not ignored, migration 0011) fails the run, rather
 * than importing the file without it, or with no value at all, as a completed import.
 */
export async function mappedColumns(deps: ImportRunnerDeps, row: ImportFileRow): Promise<StagedColumn[]> {
  const [columns, attributes] = await Promise.all([
    deps.repo.columns(row.team_id, row.id),
    deps.attributes(row.team_id),
  ]);
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const mapped = columns
    .filter((c) => !c.ignored)
    .map((c) => ({ c, a: c.lead_attribute_id ? byId.get(c.lead_attribute_id) : undefined }));
  if (mapped.some(({ a }) => !a)) {
    throw new ImportFailure('import_attribute_deleted', 'An attribute of this import was deleted.');
  }
  return mapped.flatMap(({ c, a }) =>
    a ? [{ position: c.col_position, attributeId: a.id, type: a.type, name: a.name }] : [],
  );
}

/**
 * The parse stage: reads the file into the staging table while the publisher moves committed
 * batches into the lead tables (decision 009, "Publishing while parsing"). A resumed run whose
 * earlier attempt had published keeps that staging table (its lead ids are in the leads) and stages
 * only the rows after the last one staged; otherwise it starts a fresh table.
 */
export async function parse(deps: ImportRunnerDeps, row: ImportFileRow, columns: StagedColumn[], context: JobContext) {
  const { staging } = deps;
  const kept = row.staging_table && row.published_upto > 0 ? row.staging_table : null;
  const table = kept ?? staging.tableName(row.id, row.attempt);
  if (!kept) {
    await staging.drop(row.staging_table);
    await staging.create(table, columns.length);
  }
  const stagedThrough = kept ? await staging.lastRow(kept) : 0;
  let current = await advance(deps, row, {
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
    leads_without_phone: 0,
  });
  await announceImport(deps.bus, current, 'parse', 0);
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
  // The plan's import limit (decision 015): the good rows read so far are claimed batch by batch,
  // so two imports of a team running together never pass it between them. A resumed run claims
  // again from the file's start; what it claimed before its restart is still its own.
  let claimed = 0;
  const writer = staging.copies ? await staging.copyWriter(table, columns.length) : undefined;
  const publishing = publisher(deps, current, columns, context, table);
  try {
    if (kept) publishing.add(stagedThrough, await staging.countAfter(kept, row.published_upto));
    for await (const m of fileErrors(parseInWorker(job, context.signal), context.signal)) {
      if (m.type !== 'batch' && m.type !== 'done') continue;
      if (m.counts.good > claimed) {
        const refused = await deps.importAllowance.claim(row.team_id, row.id, m.counts.good);
        if (refused) {
          const what = refused.code === 'import_limit_reached' ? 'to import' : 'the team to hold';
          throw new FileError(
            refused.code,
            `The file has more leads than the plan allows ${what}: ${refused.most.toLocaleString('en')} at most.`,
          );
        }
        claimed = m.counts.good;
      }
      if (m.type === 'batch') {
        // Failed rows first: a run resumed after a crash here sends them again (kept once).
        if (m.failed.length > 0) await deps.failedRows.add(row.team_id, row.id, m.failed, FAILED_ROWS_KEPT);
        await dataErrors(
          writer && m.copy !== undefined ? writer.write(m.copy) : staging.insert(table, m.rowNos, m.cols),
        );
        publishing.add(m.lastRowNo, m.staged);
      }
      if (publishing.failure()) throw publishing.failure();
      const progress = m.type === 'done' ? 100 : Math.min(99, Math.floor((m.bytesRead / size) * 100));
      current = await advance(deps, row, {
        progress,
        heartbeat_at: new Date(),
        parsed_leads_count: m.counts.parsed,
        leads_failed: m.counts.failed,
        ignored_phones_count: m.counts.ignoredPhones,
        invalid_format_phones_count: m.counts.invalidPhones,
        ...(m.type === 'done'
          ? { parsed_at: new Date(), staged_rows: m.counts.good, stage: 'parse_finished' as const }
          : {}),
      });
      if (m.type === 'done') {
        await announceImport(deps.bus, current, 'parse_finished', 100);
        await context.reportProgress(100, { phase: 'parsing' });
      } else if (Date.now() - lastReport > 1000) {
        lastReport = Date.now();
        await announceImport(deps.bus, current, 'parse', progress);
        await context.reportProgress(progress, { phase: 'parsing' });
      }
    }
  } catch (error) {
    await publishing.stop();
    throw error;
  } finally {
    await writer?.close();
  }
  return { row: current, publishing };
}
