import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { ImportFailure } from '../import-failure.ts';
import { isSepLine } from '../file-sniff.ts';
import { xlsxSheetRows } from './xlsx-reader.ts';

/** Rows as arrays of strings, with the bytes of the file read so far (for progress). */
export type RowSource = AsyncGenerator<string[], void, undefined>;
export interface ReadProgress {
  bytesRead: number;
}

/** Text past this in one unfinished CSV record (an unclosed quote) means the file is broken. */
const MAX_RECORD_CHARS = 64 * 1024 * 1024;

/**
 * Finds where a text read piece by piece can be cut so that no quoted field is split: just after
 * the last record break outside quotes. Mirrors papaparse: a quote opens a quoted field only at a
 * field's start. The quote state carries from piece to piece, so each character is scanned once and
 * an unfinished record is never joined up until it ends (rescanning and re-joining it on every
 * 1 MB read costs 10 s of the parser thread on a 64 MB unclosed quote, against 0.9 s).
 */
export function cutScanner(delimiter: string) {
  const d = delimiter.charCodeAt(0);
  let quoted = false;
  let fieldStart = true;
  // A quote at the very end of a quoted piece closes the field, unless the next piece starts with
  // the second half of an escaped "".
  let quoteAtEnd = false;
  return {
    /** The cut point in this piece (just after a record break), or -1 for none. */
    scan(piece: string): number {
      if (piece.length === 0) return -1;
      let cut = -1;
      let i = 0;
      if (quoteAtEnd) {
        quoteAtEnd = false;
        if (piece.charCodeAt(0) === 34) i = 1;
        else quoted = false;
      }
      for (; i < piece.length; i++) {
        const c = piece.charCodeAt(i);
        if (quoted) {
          if (c === 34) {
            if (i + 1 === piece.length) quoteAtEnd = true;
            else if (piece.charCodeAt(i + 1) === 34) i++;
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
    },
  };
}

/** CSV/TSV in any of the detected encodings, parsed by papaparse one cut-safe slice at a time. */
export async function* csvRows(path: string, encoding: string, delimiter: string, progress: ReadProgress): RowSource {
  // The encoding is told by the file's first 64 kB. A file that is ASCII there and Windows-1251
  // further on would read as UTF-8 with its Cyrillic turned into U+FFFD: UTF-8 is read strictly, and
  // a byte that is not UTF-8 stops the import as the file's fault (taken back, decision 009).
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
  const decode = (chunk?: Buffer) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw Object.assign(
        new Error(
          `The file is not UTF-8 throughout (a byte past ${progress.bytesRead - (chunk?.length ?? 0)} is not); save it as UTF-8.`,
        ),
        { code: 'import_file_invalid_text' },
      );
    }
  };
  async function* pieces() {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
      progress.bytesRead += (chunk as Buffer).length;
      yield decode(chunk as Buffer);
    }
    yield decode();
  }
  yield* csvRecords(pieces(), delimiter);
}

/** The records of CSV text that arrives in pieces cut anywhere, as papaparse reads the whole text. */
export async function* csvRecords(pieces: AsyncIterable<string> | Iterable<string>, delimiter: string): RowSource {
  const scanner = cutScanner(delimiter);
  // The text read but not parsed yet (the start of an unfinished record), in pieces.
  let held: string[] = [];
  let heldChars = 0;
  // The first record's line break, for the whole file: papaparse guessing it again for every slice
  // guessed wrong on slices whose only bare \n sat inside a quoted cell of a \r\n file (Excel's
  // way), leaving a \r on a record's last cell.
  let newline: '\n' | '\r\n' | undefined;
  let first = true;
  const parse = (text: string) => {
    const records = Papa.parse<string[]>(text, { delimiter, newline, skipEmptyLines: false }).data as string[][];
    // Excel's `sep=;` hint line named the delimiter (detectDelimiter): it is not the header.
    if (first && records.length > 0) {
      first = false;
      if (isSepLine(records[0], delimiter)) records.shift();
    }
    return records;
  };
  for await (const text of pieces) {
    const cut = scanner.scan(text);
    if (cut < 0) {
      held.push(text);
      heldChars += text.length;
      if (heldChars > MAX_RECORD_CHARS) {
        throw new ImportFailure('import_file_unclosed_quote', 'A record of the file never ends (an unclosed quote).');
      }
      continue;
    }
    held.push(text.slice(0, cut));
    const ready = held.join('');
    newline ??= ready.endsWith('\r\n') ? '\r\n' : '\n';
    yield* parse(ready);
    const rest = text.slice(cut);
    held = [rest];
    heldChars = rest.length;
  }
  const last = held.join('');
  if (last) yield* parse(last);
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
