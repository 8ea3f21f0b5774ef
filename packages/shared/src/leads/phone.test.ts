import { describe, expect, it } from 'vitest';
import { compileIgnoredFormats, invalidIgnoredFormats, isIgnoredPhone, normalizePhone } from './phone.ts';

describe('normalizePhone', () => {
  it.each([
    ['+380 50 123 45 67', '+380501234567'],
    ['380501234567', '+380501234567'],
    ['0501234567', '+380501234567'],
    ['(050) 123-45-67', '+380501234567'],
    ['3.80501234567E+11', '+380501234567'],
    ['00380501234567', '+380501234567'],
    ['+1 415 555 2671', '+14155552671'],
  ])('%s → %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each(['', 'abc', '12', '+380 12', '+38050123456789012', 'phone: 123'])('rejects %j', (input) => {
    expect(normalizePhone(input)).toBeNull();
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
