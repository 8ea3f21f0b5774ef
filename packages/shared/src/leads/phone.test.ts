import { describe, expect, it } from 'vitest';
import {
  compileIgnoredFormats,
  invalidIgnoredFormats,
  isIgnoredPhone,
  normalizePhone,
  readPhone,
  spreadsheetDigits,
} from './phone.ts';

describe('the phone rule (default country Ukraine)', () => {
  it.each([
    ['national without the leading zero (a spreadsheet number)', '689739858', '+380689739858'],
    ['national with the leading zero', '0689739858', '+380689739858'],
    ['national, written with brackets and dashes', '(098) 995-00-43', '+380989950043'],
    ['380… without +', '380501234567', '+380501234567'],
    ['+380…', '+380 50 123 45 67', '+380501234567'],
    ['00380…', '00380501234567', '+380501234567'],
    ['scientific notation', '3.80501234567E+11', '+380501234567'],
    ['scientific notation with a decimal comma', '3,80501234567E+11', '+380501234567'],
    ['scientific notation of a national number', '6.89739858E+8', '+380689739858'],
    ['a .0 suffix', '689739858.0', '+380689739858'],
    ['a .0 suffix on 380…', '380501234567.0', '+380501234567'],
    ['a foreign number with +', '+1 415 555 2671', '+14155552671'],
    ['a foreign number with 00', '0044 20 7946 0958', '+442079460958'],
    ['a foreign number without +, invalid in Ukraine', '14155552671', '+14155552671'],
    ['valid in both readings: the national one wins (not New Caledonia)', '687916046', '+380687916046'],
  ])('%s: %s → %s', (_, input, expected) => {
    expect(readPhone(input)).toEqual({ ok: true, phone: expected });
    expect(normalizePhone(input, 'UA')).toBe(expected);
  });

  it.each([
    ['a short code', '1234', 'too_short'],
    ['a short code with +', '+380 12', 'too_short'],
    ['letters', 'phone: 123', 'not_a_number'],
    ['empty', '', 'not_a_number'],
    ['too many digits', '+38050123456789012', 'too_long'],
    ['valid nowhere', '+380 00 000 00 00', 'invalid'],
  ])('refuses %s (%j) as %s', (_, input, reason) => {
    expect(readPhone(input)).toEqual({ ok: false, reason });
    expect(normalizePhone(input)).toBeNull();
  });
});

describe('the phone rule in another default country', () => {
  it.each([
    ['GB', '07911 123456', '+447911123456'],
    ['GB', '7911123456', '+447911123456'],
    ['GB', '380501234567', '+380501234567'],
    ['US', '(415) 555-2671', '+14155552671'],
    ['US', '+380501234567', '+380501234567'],
    ['PL', '512345678', '+48512345678'],
  ])('%s: %s → %s', (country, input, expected) => {
    expect(normalizePhone(input, country)).toBe(expected);
  });

  it('reads in Ukraine when the country is not one the rule knows', () => {
    expect(normalizePhone('0501234567', 'XX')).toBe('+380501234567');
  });
});

describe('spreadsheet digits', () => {
  it.each([
    ['689739858', '689739858'],
    ['6.89739858E+8', '689739858'],
    ['3.80501234567e11', '380501234567'],
    ['689739858.0', '689739858'],
    ['689739858,00', '689739858'],
    ['0.5', '0.5'],
    ['+380 50', '+380 50'],
  ])('%s → %s', (input, expected) => {
    expect(spreadsheetDigits(input)).toBe(expected);
  });
});

describe('ignored phone formats', () => {
  const patterns = compileIgnoredFormats('+38067*\n# comment\n+1 415 XXX XXXX\n\n');
  it('matches prefixes with * and single digits with X', () => {
    expect(isIgnoredPhone('+380671234567', patterns)).toBe(true);
    expect(isIgnoredPhone('+14155552671', patterns)).toBe(true);
    expect(isIgnoredPhone('+380501234567', patterns)).toBe(false);
    expect(isIgnoredPhone('+141555526710', patterns)).toBe(false);
  });
  it('reports lines that are not patterns', () => {
    expect(invalidIgnoredFormats('+38067*\nabc\n+1 (415) XXX')).toEqual(['abc']);
  });
});
