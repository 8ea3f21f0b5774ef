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
import { type NumberStyles, rowCells, stringItem, styleKinds } from './xlsx-cells.ts';

export interface XlsxProgress {
  bytesRead: number;
}

/** Text past this inside one unfinished row means the file is broken. */
const MAX_ROW_CHARS = 64 * 1024 * 1024;

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
