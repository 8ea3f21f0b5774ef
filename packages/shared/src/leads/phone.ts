import {
  type CountryCode,
  getCountries,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';

/** The country a team reads phones in until its owner picks another (decision 011). */
export const DEFAULT_PHONE_COUNTRY = 'UA';

/** Every country a team may read phones in (ISO 3166 alpha-2), as the phone metadata knows them. */
export const PHONE_COUNTRIES: readonly string[] = getCountries();

export function isPhoneCountry(code: string): code is CountryCode {
  return (PHONE_COUNTRIES as string[]).includes(code);
}

/** A team's phone rule: the country it reads numbers in first, and the formats it never stores. */
export interface PhoneRule {
  country: string;
  ignored: RegExp[];
}

/** Why a phone was refused, in words the message and the web can both use. */
export type PhoneRefusal = 'not_a_number' | 'too_short' | 'too_long' | 'invalid';
export type PhoneReading = { ok: true; phone: string } | { ok: false; reason: PhoneRefusal };

/**
 * The digits a user typed into a cell a spreadsheet then stored as a number: scientific notation
 * (`3.80501234567E+11`, also with a decimal comma) and a `.0` suffix (`689739858.0`) are undone.
 * Anything else comes back unchanged.
 */
export function spreadsheetDigits(raw: string): string {
  const text = raw.trim();
  if (/^\d+([.,]\d+)?e\+?\d+$/i.test(text)) {
    const n = Number(text.replace(',', '.'));
    return Number.isSafeInteger(n) ? n.toFixed(0) : text;
  }
  const fraction = /^(\d+)[.,]0+$/.exec(text);
  return fraction ? fraction[1] : text;
}

function valid(text: string, country?: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(text, country);
  return parsed?.isValid() ? parsed.number : null;
}

function refusal(text: string, country?: CountryCode): PhoneRefusal {
  const length = validatePhoneNumberLength(text, country);
  return length === 'TOO_SHORT' ? 'too_short' : length === 'TOO_LONG' ? 'too_long' : 'invalid';
}

/**
 * The one phone rule (decision 011), used by imports, forms, the API and audience filters alike. A
 * number written with `+` or `00` is international. Any other number is read in the team's country
 * first, and as international (digits with a `+` before them) only when it is not a valid number
 * there: a value valid in both readings is the national one, so no phone lands in a country the
 * user did not mean. Spaces, dashes, dots, slashes and brackets are ignored.
 */
export function readPhone(input: string, country: string = DEFAULT_PHONE_COUNTRY): PhoneReading {
  const region = isPhoneCountry(country) ? country : DEFAULT_PHONE_COUNTRY;
  let raw = spreadsheetDigits(input).replace(/[\s().\-/\u00a0]/g, '');
  if (raw.startsWith('00')) raw = `+${raw.slice(2)}`;
  if (!/^\+?\d+$/.test(raw)) return { ok: false, reason: 'not_a_number' };
  if (raw.length < 4) return { ok: false, reason: 'too_short' };
  if (raw.length > 18) return { ok: false, reason: 'too_long' };
  if (raw.startsWith('+')) {
    const phone = valid(raw);
    return phone ? { ok: true, phone } : { ok: false, reason: refusal(raw) };
  }
  const phone = valid(raw, region as CountryCode) ?? valid(`+${raw}`);
  return phone ? { ok: true, phone } : { ok: false, reason: refusal(raw, region as CountryCode) };
}

/** The phone in E.164, or null when the rule refuses it. */
export function normalizePhone(input: string, country: string = DEFAULT_PHONE_COUNTRY): string | null {
  const reading = readPhone(input, country);
  return reading.ok ? reading.phone : null;
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
