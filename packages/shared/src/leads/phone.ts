import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export const DEFAULT_PHONE_REGION = 'UA';

/**
 * Normalises a phone to E.164, or null when it is not a valid number. Digits-only input is read as
 * international (a leading + is added), except a national number starting with 0 (Ukrainian 0XX…).
 * Excel's scientific notation (3.8050123E+11) and spaces, dashes, dots and brackets are accepted.
 */
export function normalizePhone(input: string): string | null {
  let raw = input.trim();
  if (/^\d+(\.\d+)?e\+?\d+$/i.test(raw)) {
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) return null;
    raw = String(n);
  }
  raw = raw.replace(/[\s().\-\u00a0]/g, '');
  if (raw.startsWith('00')) raw = `+${raw.slice(2)}`;
  if (!/^\+?\d{5,17}$/.test(raw)) return null;
  const candidate = raw.startsWith('+') || raw.startsWith('0') ? raw : `+${raw}`;
  const parsed = parsePhoneNumberFromString(candidate, DEFAULT_PHONE_REGION);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * Ignored phone formats, one per line, matched against the whole E.164 number: digits match
 * themselves, `X` (or `x`, `?`) any one digit, `*` any run of digits; `+`, spaces, dashes and
 * brackets are ignored; a line starting with `#` is a comment.
 */
export function compileIgnoredFormats(lines: string): RegExp[] {
  return lines
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.replace(/[\s()+-]/g, ''))
    .filter((l) => /^[\dxX?*]+$/.test(l))
    .map((l) => new RegExp(`^${l.replace(/[xX?]/g, '\\d').replace(/\*/g, '\\d*')}$`));
}

/** The ignored-format lines that are not valid patterns, to tell the user. */
export function invalidIgnoredFormats(lines: string): string[] {
  return lines
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !/^[\dxX?*]+$/.test(l.replace(/[\s()+-]/g, '')));
}

export function isIgnoredPhone(e164: string, patterns: RegExp[]): boolean {
  const digits = e164.replace(/^\+/, '');
  return patterns.some((p) => p.test(digits));
}
