import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { xlsxSheetRows } from './xlsx-reader.ts';

/** Rows as arrays of strings, with the bytes of the file read so far (for progress). */
export type RowSource = AsyncGenerator<string[], void, undefined>;
export interface ReadProgress {
  bytesRead: number;
}

/** Text past this in one unfinished CSV record (an unclosed quote) means the file is broken. */
const MAX_RECORD_CHARS = 64 * 1024 * 1024;

/**
 * Where `text` can be cut so that no quoted field is split: just after the last record break that
 * lies outside quotes. Mirrors papaparse: a quote opens a quoted field only at a field's start.
 */
export function safeCut(text: string, delimiter: string): number {
  let cut = -1;
  let quoted = false;
  let fieldStart = true;
  const d = delimiter.charCodeAt(0);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 34) {
        if (text.charCodeAt(i + 1) === 34) i++;
        else quoted = false;
      }
      continue;
    }
    if (c === 34 && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c === 10) {
      cut = i + 1;
      fieldStart = true;
    } else if (c === d) fieldStart = true;
    else if (c !== 13) fieldStart = false;
  }
  return cut;
}

/** CSV/TSV in any of the detected encodings, parsed by papaparse one cut-safe slice at a time. */
export async function* csvRows(path: string, encoding: string, delimiter: string, progress: ReadProgress): RowSource {
  const decoder = new TextDecoder(encoding);
  let pending = '';
  const parse = (text: string) =>
    Papa.parse<string[]>(text, { delimiter, newline: undefined, skipEmptyLines: false }).data as string[][];
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    progress.bytesRead += (chunk as Buffer).length;
    pending += decoder.decode(chunk as Buffer, { stream: true });
    const cut = safeCut(pending, delimiter);
    if (cut <= 0) {
      if (pending.length > MAX_RECORD_CHARS) throw new Error('A record of the file never ends (an unclosed quote).');
      continue;
    }
    const ready = pending.slice(0, cut);
    pending = pending.slice(cut);
    yield* parse(ready);
  }
  pending += decoder.decode();
  if (pending) yield* parse(pending);
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    // Formulas are never evaluated: the value Excel saved with them is taken.
    if ('formula' in v || 'sharedFormula' in v) return cellText(v.result);
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: string }) => r.text ?? '').join('');
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
  }
  return String(value);
}

/** The first worksheet of an xlsx, streamed (memory does not grow with rows; see xlsx-reader.ts). */
export function xlsxRows(path: string, progress: ReadProgress): RowSource {
  return xlsxSheetRows(path, progress);
}

/** XLS through SheetJS CE (read whole: there is no streaming xls reader; size capped upstream). */
export async function* xlsRows(path: string, progress: ReadProgress, maxRows?: number): RowSource {
  const XLSX = await import('@e965/xlsx');
  const buffer = await readFile(path);
  progress.bytesRead = buffer.length;
  const workbook = XLSX.read(buffer, {
    type: 'buffer',
    dense: true,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
    sheets: 0,
    ...(maxRows ? { sheetRows: maxRows } : {}),
  });
  const sheet = workbook.Sheets[workbook.SheetNames[0]];
  if (!sheet) return;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: false });
  for (const row of rows) yield row.map(cellText);
}
