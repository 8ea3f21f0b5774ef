// A streaming reader for the first worksheet of an xlsx: the zip is opened by its central
// directory (yauzl, random access), the shared strings are read first whatever their place in the
// archive, and the sheet's XML is inflated and scanned row by row. Only what an import needs is
// read: cell values (shared, inline, formula results, numbers, booleans, dates — a date is a number
// whose style's format shows a date, so the styles' number formats are read too); formulas' text
// and everything else are skipped. Decision 009 says why it replaced exceljs.
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ImportFailure } from '../import-failure.ts';

export interface XlsxProgress {
  bytesRead: number;
}

/** Text past this inside one unfinished row means the file is broken. */
const MAX_ROW_CHARS = 64 * 1024 * 1024;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** XML character and entity references (the only escapes sheet XML has). */
export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

/** The text of a string item: its `<t>` runs joined, phonetic hints (`<rPh>`) left out. */
function stringItem(xml: string): string {
  const body = xml.includes('rPh') ? xml.replace(/<(\w+:)?rPh\b[\s\S]*?<\/(\w+:)?rPh>/g, '') : xml;
  let out = '';
  const t = /<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g;
  for (let m = t.exec(body); m; m = t.exec(body)) out += m[1];
  return decodeXml(out);
}

/** A number as the import reads it: integers without exponent (phones typed as numbers). */
function numberText(raw: string): string {
  const n = Number(raw);
  if (raw === '' || Number.isNaN(n)) return raw;
  return Number.isInteger(n) ? n.toFixed(0) : String(n);
}

/** Column number (0-based) of a cell reference such as `AB12`. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** How a styled number reads: as it is, a calendar date, a date and time, or a time of day. */
export type NumberKind = 'number' | 'date' | 'datetime' | 'time';

// Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30, and the East Asian
// locale ids Excel writes for its local date formats).
const BUILTIN_KINDS = new Map<number, NumberKind>([
  ...[14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58].map((id) => [id, 'date'] as const),
  [22, 'datetime'],
  ...[18, 19, 20, 21, 32, 33, 45, 46, 47, 55, 56].map((id) => [id, 'time'] as const),
]);

/** What a custom format code shows, read from its tokens once quoted text and brackets are gone. */
export function formatKind(code: string): NumberKind {
  const bare = code
    .split(';')[0]
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h+\]|m+\]|s+\])[^\]]*\]/gi, '')
    .toLowerCase();
  const hasDate = /[yd]/.test(bare) || /(^|[^h:])m{3,}/.test(bare);
  const hasTime = /[hs]|am\/pm|a\/p/.test(bare);
  if (hasDate && hasTime) return 'datetime';
  if (hasDate) return 'date';
  return hasTime ? 'time' : 'number';
}

/**
 * The kind of each cell style (`s` attribute = index into `cellXfs`), from `xl/styles.xml`. Only
 * date and time styles are kept; everything else reads as a number.
 */
export function styleKinds(stylesXml: string): NumberKind[] {
  const custom = new Map<number, NumberKind>();
  for (const m of stylesXml.matchAll(/<(?:\w+:)?numFmt\b([^>]*)\/?>/g)) {
    const id = Number(/\bnumFmtId="(\d+)"/.exec(m[1])?.[1]);
    const code = /\bformatCode="([^"]*)"/.exec(m[1])?.[1];
    if (Number.isFinite(id) && code !== undefined) custom.set(id, formatKind(decodeXml(code)));
  }
  const xfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(stylesXml)?.[1] ?? '';
  const kinds: NumberKind[] = [];
  for (const m of xfs.matchAll(/<(?:\w+:)?xf\b([^>]*)>/g)) {
    const id = Number(/\bnumFmtId="(\d+)"/.exec(m[1])?.[1] ?? 0);
    kinds.push(custom.get(id) ?? BUILTIN_KINDS.get(id) ?? 'number');
  }
  return kinds;
}

const DAY_MS = 86_400_000;
/**
 * An Excel serial day number as the import reads dates: YYYY-MM-DD, with HH:MM(:SS) when the
 * format shows a time. Day 0 is 1899-12-30 in the 1900 system (which counts Lotus's phantom
 * 1900-02-29, so serials from 61 on line up), 1904-01-01 in the 1904 system.
 */
export function serialDate(serial: number, kind: Exclude<NumberKind, 'number'>, date1904 = false): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const ms = Math.round((serial * DAY_MS) / 1000) * 1000;
  const iso = new Date(epoch + ms).toISOString();
  const time = iso.endsWith(':00.000Z') ? iso.slice(11, 16) : iso.slice(11, 19);
  if (kind === 'time') return time;
  if (kind === 'datetime') return `${iso.slice(0, 10)} ${time}`;
  return iso.slice(0, 10);
}

/** What a workbook tells the reader about its numbers: the style kinds and the date system. */
export interface NumberStyles {
  kinds: NumberKind[];
  date1904: boolean;
}
const PLAIN: NumberStyles = { kinds: [], date1904: false };

const CELL = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const VALUE = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/;
const ATTR_R = /\br="([A-Z]+)\d*"/;
const ATTR_T = /\bt="(\w+)"/;
const ATTR_S = /\bs="(\d+)"/;

/** The cells of one `<row>` element as strings, by column, gaps as ''. */
export function rowCells(xml: string, shared: string[], styles: NumberStyles = PLAIN): string[] {
  const out: string[] = [];
  CELL.lastIndex = 0;
  for (let m = CELL.exec(xml); m; m = CELL.exec(xml)) {
    const attrs = m[1];
    const body = m[2] ?? '';
    const r = ATTR_R.exec(attrs);
    const column = r ? columnOf(r[1]) : out.length;
    const type = ATTR_T.exec(attrs)?.[1] ?? 'n';
    let text = '';
    if (type === 'inlineStr') text = stringItem(body);
    else {
      const v = VALUE.exec(body);
      const raw = v ? decodeXml(v[1]) : '';
      if (type === 's') text = v ? (shared[Number(raw)] ?? '') : '';
      else if (type === 'str') text = raw;
      else if (type === 'b') text = raw === '' ? '' : raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE';
      else if (type === 'e') text = '';
      else if (type === 'd') {
        const d = new Date(raw);
        text = Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
      } else {
        const kind = styles.kinds[Number(ATTR_S.exec(attrs)?.[1] ?? 0)] ?? 'number';
        const n = Number(raw.trim());
        text =
          kind !== 'number' && raw.trim() !== '' && Number.isFinite(n) && n >= 0
            ? serialDate(n, kind, styles.date1904)
            : numberText(raw.trim());
      }
    }
    while (out.length < column) out.push('');
    out[column] = text;
  }
  return out;
}

function open(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) =>
      error || !zip ? reject(error ?? new Error('The XLSX file could not be opened.')) : resolve(zip),
    );
  });
}

function entriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName.replace(/^\//, ''), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

function streamOf(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream)));
  });
}

async function textOf(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of await streamOf(zip, entry)) text += decoder.decode(chunk as Buffer, { stream: true });
  return text + decoder.decode();
}

/**
 * Complete elements named `name` from a stream of XML, each as its text: the scan keeps only the
 * unfinished tail between chunks, so memory is one chunk plus one element.
 */
async function* elements(
  stream: Readable,
  name: string,
  onBytes: (n: number) => void,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const start = new RegExp(`<(\\w+:)?${name}[\\s>/]`, 'g');
  let buffer = '';
  for await (const chunk of stream) {
    onBytes((chunk as Buffer).length);
    buffer += decoder.decode(chunk as Buffer, { stream: true });
    let from = 0;
    while (true) {
      start.lastIndex = from;
      const m = start.exec(buffer);
      if (!m) {
        // Keep a possible partial `<name` at the end.
        from = Math.max(from, buffer.length - name.length - 8);
        break;
      }
      const openEnd = buffer.indexOf('>', m.index);
      if (openEnd < 0) {
        from = m.index;
        break;
      }
      if (buffer[openEnd - 1] === '/') {
        yield '';
        from = openEnd + 1;
        continue;
      }
      const close = `</${m[1] ?? ''}${name}>`;
      const end = buffer.indexOf(close, openEnd);
      if (end < 0) {
        from = m.index;
        break;
      }
      yield buffer.slice(openEnd + 1, end);
      from = end + close.length;
    }
    buffer = buffer.slice(from);
    if (buffer.length > MAX_ROW_CHARS)
      throw new ImportFailure('import_file_row_too_large', 'A row of the XLSX file never ends.');
  }
}

/** Resolves a relationship target of the workbook (`worksheets/sheet1.xml`, `/xl/…`) to an entry name. */
function target(value: string): string {
  return value.startsWith('/') ? value.slice(1) : `xl/${value}`.replace(/\/\.\//g, '/');
}

/** The first worksheet in the workbook's order, and the shared strings part, by the workbook's relationships. */
async function parts(zip: yauzl.ZipFile, entries: Map<string, yauzl.Entry>) {
  const workbook = entries.get('xl/workbook.xml');
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  let sheet: string | undefined;
  let shared: string | undefined;
  let styles: string | undefined;
  let date1904 = false;
  if (workbook && rels) {
    const book = await textOf(zip, workbook);
    date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(book);
    const links = await textOf(zip, rels);
    const first =
      /<(?:\w+:)?sheet\b[^>]*?\br:id="([^"]+)"/.exec(book)?.[1] ??
      /<(?:\w+:)?sheet\b[^>]*?:id="([^"]+)"/.exec(book)?.[1];
    for (const m of links.matchAll(/<(?:\w+:)?Relationship\b([^>]*)>/g)) {
      const id = /\bId="([^"]+)"/.exec(m[1])?.[1];
      const to = /\bTarget="([^"]+)"/.exec(m[1])?.[1];
      const type = /\bType="([^"]+)"/.exec(m[1])?.[1] ?? '';
      if (!to) continue;
      if (id === first) sheet = target(to);
      if (type.endsWith('/sharedStrings')) shared = target(to);
      if (type.endsWith('/styles')) styles = target(to);
    }
  }
  if (!sheet || !entries.has(sheet)) {
    sheet = [...entries.keys()]
      .filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))
      .sort((a, b) => Number(/\d+/.exec(a)?.[0] ?? 0) - Number(/\d+/.exec(b)?.[0] ?? 0))[0];
  }
  if (!shared || !entries.has(shared))
    shared = entries.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined;
  if (!styles || !entries.has(styles)) styles = entries.has('xl/styles.xml') ? 'xl/styles.xml' : undefined;
  return { sheet, shared, styles, date1904 };
}

/** The rows of the first worksheet as arrays of strings (memory: the shared strings and one row). */
export async function* xlsxSheetRows(path: string, progress: XlsxProgress): AsyncGenerator<string[], void, undefined> {
  const size = (await stat(path)).size;
  const zip = await open(path);
  let stream: Readable | undefined;
  try {
    const entries = await entriesOf(zip);
    const { sheet, shared, styles: stylesPart, date1904 } = await parts(zip, entries);
    // Small (a few kB even for big sheets): dates are numbers with a date style, read by the style.
    const styleEntry = stylesPart ? entries.get(stylesPart) : undefined;
    const styles: NumberStyles = {
      kinds: styleEntry ? styleKinds(await textOf(zip, styleEntry)) : [],
      date1904,
    };
    const strings: string[] = [];
    if (shared) {
      const entry = entries.get(shared) as yauzl.Entry;
      for await (const si of elements(await streamOf(zip, entry), 'si', () => {})) strings.push(stringItem(si));
    }
    const entry = sheet ? entries.get(sheet) : undefined;
    if (!entry) return;
    const total = Math.max(1, entry.uncompressedSize);
    let inflated = 0;
    stream = await streamOf(zip, entry);
    const onBytes = (n: number) => {
      inflated += n;
      progress.bytesRead = Math.min(size, Math.round((inflated / total) * size));
    };
    for await (const row of elements(stream, 'row', onBytes)) yield rowCells(row, strings, styles);
    progress.bytesRead = size;
  } finally {
    stream?.destroy();
    zip.close();
  }
}
