import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, ZTopUpRequest } from './billing.schemas.ts';

describe('amounts typed by a person', () => {
  it('reads positive decimals with up to 2 decimals as minor units', () => {
    expect(parseAmount('12.34')).toBe(1234);
    expect(parseAmount('12.3')).toBe(1230);
    expect(parseAmount('0.01')).toBe(1);
    expect(parseAmount(' 100 ')).toBe(10_000);
    expect(parseAmount(15.5)).toBe(1550);
    expect(parseAmount('1000000')).toBe(100_000_000);
  });

  it('refuses exponents, signs, commas, too many decimals, zero, NaN and huge amounts', () => {
    for (const bad of [
      '1e3',
      '-5',
      '0.001',
      '12,34',
      'NaN',
      'Infinity',
      '0',
      '0.00',
      '',
      '.5',
      '5.',
      '+5',
      '1000000.01',
    ])
      expect(parseAmount(bad), bad).toBeNull();
    for (const bad of [Number.NaN, -5, 0, 0.001, Number.POSITIVE_INFINITY, null, undefined, {}])
      expect(parseAmount(bad), String(bad)).toBeNull();
  });

  it('writes minor units back as a decimal without floats', () => {
    expect(formatAmount(1234)).toBe('12.34');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(-100)).toBe('-1.00');
  });

  it('answers the amount_invalid code for a bad top-up', () => {
    const result = ZTopUpRequest.safeParse({ amount: '12,34' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('amount_invalid');
    expect(ZTopUpRequest.parse({ amount: '12.34' }).amount).toBe(1234);
  });
});
