import { open } from 'node:fs/promises';
import type { TImportFormat } from '@herald/shared/imports/imports.schemas';
import yauzl from 'yauzl';
import { AppError } from '../../http/app-error.ts';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1251';

/** Unpacked-size and entry caps for xlsx, checked from the zip's central directory before inflating. */
export const ZIP_LIMITS = { maxEntries: 10_000, maxUnpackedBytes: 1024 * 1024 * 1024 };
/** SheetJS reads an xls whole (no streaming reader exists); larger ones are refused. */
export const XLS_MAX_BYTES = 64 * 1024 * 1024;

const EXTENSIONS: Record<string, TImportFormat> = { csv: 'csv', txt: 'csv', tsv: 'tsv', xlsx: 'xlsx', xls: 'xls' };

export function formatOfName(name: string): TImportFormat {
  const ext = name.toLowerCase().split('.').at(-1) ?? '';
  const format = name.includes('.') ? EXTENSIONS[ext] : undefined;
  if (!format) throw new AppError('import_file_type_unsupported');
  return format;
}

export async function readHead(path: string, bytes = 64 * 1024): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type Kind = 'zip' | 'ole' | 'text' | 'binary';

/** What the bytes are, whatever the name says. */
export function contentKind(head: Buffer): Kind {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return 'zip';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) return 'ole';
  if (utf16Order(head)) return 'text';
  return head.subarray(0, 8192).includes(0) ? 'binary' : 'text';
}

const EXPECTED: Record<TImportFormat, Kind> = { csv: 'text', tsv: 'text', xlsx: 'zip', xls: 'ole' };

/** A file whose extension lies about its content gets a clear error instead of garbage rows. */
export function checkContentMatches(format: TImportFormat, head: Buffer): void {
  if (head.length === 0) throw new AppError('import_file_empty');
  const kind = contentKind(head);
  if (kind !== EXPECTED[format]) {
    const actual =
      kind === 'zip' ? 'an XLSX (zip)' : kind === 'ole' ? 'an XLS' : kind === 'text' ? 'a text' : 'a binary';
    throw new AppError(
      'import_file_type_mismatch',
      `The file is named .${format} but its content is ${actual} file. Save it again in the right format.`,
    );
  }
}

function utf16Order(head: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // Without a BOM: ASCII text in UTF-16 has a zero in every other byte.
  const sample = head.subarray(0, Math.min(head.length, 2000) & ~1);
  if (sample.length < 8) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** UTF-8 (with or without BOM), UTF-16 LE/BE, else Windows-1251 (Ukrainian Excel exports). */
export function detectEncoding(head: Buffer): TextEncoding {
  const utf16 = utf16Order(head);
  if (utf16) return utf16;
  try {
    // stream: true keeps a multi-byte character cut at the end of the sample from counting as invalid.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1251';
  }
}

/**
 * Excel's hint line, `sep=;` (quoted or not), which some exports put first so that Excel splits
 * the file right in any locale: it names the delimiter and is not a record.
 */
const SEP_LINE = /^"?sep=([,;\t])"?$/i;

/** Spaces and a stray CR around the line, not a tab: `sep=<tab>` names one. */
const bare = (line: string) => line.replace(/^[ \r]+|[ \r]+$/g, '');

/** Whether a first record is Excel's `sep=` line for the delimiter it was split by. */
export function isSepLine(record: readonly string[], delimiter: string): boolean {
  return SEP_LINE.exec(bare(record.join(delimiter)))?.[1] === delimiter;
}

/**
 * `,` `;` or tab: the one a first `sep=` line names, else the one that splits the first lines most
 * consistently (quotes respected).
 */
export function detectDelimiter(text: string): ',' | ';' | '\t' {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
  const named = SEP_LINE.exec(bare(firstLine))?.[1];
  if (named === ',' || named === ';' || named === '\t') return named;
  const lines: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text.slice(0, 32 * 1024)) {
    if (char === '"') quoted = !quoted;
    if ((char === '\n' || char === '\r') && !quoted) {
      if (current.trim()) lines.push(current);
      current = '';
      if (lines.length >= 10) break;
      continue;
    }
    if (!quoted) current += char;
  }
  if (current.trim() && lines.length < 10) lines.push(current);
  let best: ',' | ';' | '\t' = ',';
  let bestScore = 0;
  for (const delimiter of [',', ';', '\t'] as const) {
    const counts = lines.map((l) => l.split(delimiter).length - 1);
    const min = Math.min(...counts);
    // Consistent across lines counts most; a header-only file still has its first line.
    const score = counts.length === 0 ? 0 : min * 1000 + counts[0];
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Reads the zip's central directory (no entry is inflated) and refuses archives whose declared
 * unpacked size or entry count exceed the caps: a zip bomb never reaches the xlsx reader.
 */
export function checkZip(path: string, limits = ZIP_LIMITS): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) {
        reject(new AppError('import_file_unreadable', 'The XLSX file is damaged and could not be opened.'));
        return;
      }
      if (zip.entryCount > limits.maxEntries) {
        zip.close();
        reject(
          new AppError('import_file_unsafe', `The XLSX file has more than ${limits.maxEntries} parts and was refused.`),
        );
        return;
      }
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        if (total > limits.maxUnpackedBytes) {
          zip.close();
          const mb = Math.round(limits.maxUnpackedBytes / 1024 / 1024);
          reject(new AppError('import_file_unsafe', `The XLSX file unpacks to more than ${mb} MB and was refused.`));
          return;
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', () => reject(new AppError('import_file_unreadable', 'The XLSX file is damaged.')));
      zip.readEntry();
    });
  });
}
