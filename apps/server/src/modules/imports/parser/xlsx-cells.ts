// The cells of an xlsx sheet's XML as the import reads them: shared and inline strings, numbers
// (integers without exponent), booleans, and numbers whose style shows a date, as dates.

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
export function stringItem(xml: string): string {
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
