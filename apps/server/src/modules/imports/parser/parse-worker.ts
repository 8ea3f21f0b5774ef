// Runs in a worker thread: reads the file, normalises values, and hands rows to the main thread in
// batches, waiting for credit so memory stays bounded however large the file.
import { parentPort, workerData } from 'node:worker_threads';
import { unguardCell } from '@herald/shared/common/csv-cells';
import { englishOf, message, type TMessage } from '@herald/shared/common/messages';
import { cellValues, normalizeLeadValue } from '@herald/shared/leads/lead-values';
import { compileIgnoredFormats, DEFAULT_PHONE_COUNTRY } from '@herald/shared/leads/phone';
import {
  type FailedRow,
  type ParseCounts,
  type ParseJob,
  type ParseMessage,
  VALUE_SEPARATOR,
} from './parse-protocol.ts';
import { csvRows, type ReadProgress, type RowSource, xlsRows, xlsxRows } from './row-readers.ts';

const MAX_CELL_CHARS = 10_000;
const port = parentPort;
if (!port) throw new Error('parse-worker must run in a worker thread');

let credit = 2;
let wake: (() => void) | undefined;
port.on('message', (message: { type: 'ack' }) => {
  if (message.type === 'ack') {
    credit++;
    wake?.();
  }
});
const send = (message: ParseMessage) => port.postMessage(message);

function rowsOf(job: ParseJob, progress: ReadProgress): RowSource {
  if (job.format === 'xlsx') return xlsxRows(job.path, progress);
  if (job.format === 'xls') return xlsRows(job.path, progress, job.mode === 'preview' ? 200 : undefined);
  return csvRows(job.path, job.encoding ?? 'utf-8', job.delimiter ?? (job.format === 'tsv' ? '\t' : ','), progress);
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** One field of PostgreSQL's COPY text format. */
const copyField = (v: string | null) =>
  v === null ? '\\N' : /[\\\n\r\t]/.test(v) ? v.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]) : v;

const isEmpty = (row: string[]) => row.every((c) => c.trim() === '');

/**
 * A cell, trimmed, without the `'` a spreadsheet-safe export put before a leading = + - @; PostgreSQL
 * text cannot hold NUL, so a stray one (a binary export) is dropped, and so is the staged values'
 * separator.
 */
function cellOf(row: string[], position: number) {
  const cell = (row[position] ?? '').trim();
  const stray = cell.includes('\0') || cell.includes(VALUE_SEPARATOR);
  return unguardCell(stray ? cell.replaceAll('\0', '').replaceAll(VALUE_SEPARATOR, '').trim() : cell);
}

/** Whether an earlier column of the same attribute staged this value for the row already. */
function stagedBefore(values: Array<string | null>, columns: ParseJob['columns'] & {}, i: number, value: string) {
  for (let j = 0; j < i; j++) {
    const staged = values[j];
    if (staged !== null && columns[j].attributeId === columns[i].attributeId) {
      if (staged === value || staged.split(VALUE_SEPARATOR).includes(value)) return true;
    }
  }
  return false;
}

async function preview(job: ParseJob) {
  const progress = { bytesRead: 0 };
  let header: string[] | undefined;
  const rows: string[][] = [];
  const limit = job.previewRows ?? 10;
  const source = rowsOf(job, progress);
  let complete = true;
  for await (const row of source) {
    if (isEmpty(row)) {
      // A file of a million empty rows is read to its end only up to a point.
      if (progress.bytesRead > 64 * 1024 * 1024) {
        complete = false;
        break;
      }
      continue;
    }
    if (!header) header = row.map((c) => c.slice(0, 200));
    // As the run will read them, so the samples and the proposed mapping see `+380…`, not `'+380…`.
    else rows.push(row.map((c) => unguardCell(c.trim()).slice(0, 500)));
    if (rows.length >= limit) {
      complete = false;
      break;
    }
  }
  await source.return(undefined);
  send({ type: 'preview', header: header ?? [], rows, complete });
}

async function full(job: ParseJob) {
  const columns = job.columns ?? [];
  const rule = {
    ignored: compileIgnoredFormats(job.ignoredFormats ?? ''),
    country: job.defaultCountry ?? DEFAULT_PHONE_COUNTRY,
  };
  const batchSize = job.batchSize ?? 5000;
  const progress = { bytesRead: 0 };
  const counts: ParseCounts = { parsed: 0, good: 0, failed: 0, ignoredPhones: 0, invalidPhones: 0 };
  let rowNos: number[] = [];
  let cols: Array<Array<string | null>> = columns.map(() => []);
  let failed: FailedRow[] = [];
  // COPY text is one string per batch: cheaper to post than arrays, and streamed as is (PostgreSQL).
  let copy = '';
  let staged = 0;
  let lastRowNo = 0;
  let read = 0;
  const stagedThrough = job.stagedThrough ?? 0;

  const flush = async () => {
    while (credit <= 0) await new Promise<void>((r) => (wake = r));
    credit--;
    const rows = job.copyText ? { copy } : {};
    send({
      type: 'batch',
      rowNos,
      cols,
      ...rows,
      failed,
      staged,
      lastRowNo,
      counts: { ...counts },
      bytesRead: progress.bytesRead,
    });
    rowNos = [];
    cols = columns.map(() => []);
    failed = [];
    copy = '';
    staged = 0;
    lastRowNo = 0;
    read = 0;
  };

  let headerSeen = false;
  const values: Array<string | null> = columns.map(() => null);
  for await (const row of rowsOf(job, progress)) {
    // A batch also every few thousand rows read, even with nothing to stage (empty rows, failing
    // ones, rows a resumed run staged before), so progress and the run's heartbeat go on.
    if (++read >= 4 * batchSize) await flush();
    if (isEmpty(row)) continue;
    if (!headerSeen) {
      headerSeen = true;
      continue;
    }
    const rowNo = ++counts.parsed;
    let reason: TMessage | undefined;
    let stored = 0;
    for (let i = 0; i < columns.length; i++) {
      values[i] = null;
      const column = columns[i];
      const raw = cellOf(row, column.position);
      if (!raw || reason) continue;
      if (raw.length > MAX_CELL_CHARS) {
        reason = message('value_too_long', { count: MAX_CELL_CHARS });
        continue;
      }
      // A contact app may join several values in one cell: each is read on its own, and the same
      // value twice on one attribute (in this cell or an earlier column) is stored once, as a
      // manual create does.
      const kept: string[] = [];
      for (const part of cellValues(column.type, raw)) {
        const check = normalizeLeadValue(column.type, part, rule);
        if (check.ok) {
          if (!kept.includes(check.value) && !stagedBefore(values, columns, i, check.value)) kept.push(check.value);
        } else if (check.reason === 'ignored') counts.ignoredPhones++;
        else {
          if (column.type === 'phone') counts.invalidPhones++;
          reason = check.message;
          break;
        }
      }
      if (!reason && kept.length > 0) {
        values[i] = kept.join(VALUE_SEPARATOR);
        stored++;
      }
    }
    if (!reason && stored === 0) {
      // Only ignored phones: skipped on purpose, counted as ignored, not as a failure.
      if (columns.some((c) => c.type === 'phone' && (row[c.position] ?? '').trim())) continue;
      reason = message('no_mapped_value');
    }
    if (reason) {
      counts.failed++;
      // Sent again by a resumed run too: they are kept once, and a crash may have lost them.
      failed.push({
        row: rowNo,
        reason: englishOf(reason),
        message: reason,
        cells: columns
          .map((c) => ({ attribute_id: c.attributeId, value: cellOf(row, c.position).slice(0, 1000) }))
          .filter((c) => c.value),
      });
    } else {
      counts.good++;
      if (rowNo > stagedThrough) {
        staged++;
        lastRowNo = rowNo;
        if (job.copyText) {
          let line = String(rowNo);
          for (let i = 0; i < columns.length; i++) line += `\t${copyField(values[i])}`;
          copy += `${line}\n`;
        } else {
          rowNos.push(rowNo);
          for (let i = 0; i < columns.length; i++) cols[i].push(values[i]);
        }
      }
    }
    if (staged >= batchSize || failed.length >= batchSize) await flush();
  }
  if (staged > 0 || failed.length > 0) await flush();
  send({ type: 'done', counts, bytesRead: progress.bytesRead });
}

const job = workerData as ParseJob;
(job.mode === 'preview' ? preview(job) : full(job)).catch((error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  send({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  });
});
