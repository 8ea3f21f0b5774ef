import { describe, expect, it } from 'vitest';
import { coveredPrefix, priceOf } from './charge-math.ts';

describe('the price of a charge', () => {
  it('is the amount when no parts are given', () => {
    expect(priceOf({ amount: 250 }, 100, true)).toEqual({ amount: 250, freeParts: 0 });
  });

  it('spends free parts first, then charges each remaining part', () => {
    expect(priceOf({ parts: 3, pricePerPart: 40 }, 10, true)).toEqual({ amount: 0, freeParts: 3 });
    expect(priceOf({ parts: 3, pricePerPart: 40 }, 1, true)).toEqual({ amount: 80, freeParts: 1 });
    expect(priceOf({ parts: 3, pricePerPart: 40 }, 0, true)).toEqual({ amount: 120, freeParts: 0 });
    expect(priceOf({ parts: 3, pricePerPart: 40 }, Number.POSITIVE_INFINITY, true)).toEqual({
      amount: 0,
      freeParts: 3,
    });
  });

  it('gives no free parts to what is not an SMS (a lookup)', () => {
    expect(priceOf({ parts: 2, pricePerPart: 40 }, 10, false)).toEqual({ amount: 80, freeParts: 0 });
  });

  it('refuses parts that are not a whole number', () => {
    expect(priceOf({ parts: 1.5, pricePerPart: 40 }, 0, true).amount).toBeNaN();
    expect(priceOf({ parts: -1, pricePerPart: 40 }, 0, true).amount).toBeNaN();
  });
});

describe('the prefix of a batch a balance covers', () => {
  it('takes messages in order while they fit, and stops at the first that does not', () => {
    expect(coveredPrefix([0, 0, 10, 20, 20, 20, 20, 20], 100)).toBe(7);
    expect(coveredPrefix([50, 10, 10], 40)).toBe(0);
    expect(coveredPrefix([10, 10], 20)).toBe(2);
    expect(coveredPrefix([], 0)).toBe(0);
    expect(coveredPrefix([0, 0], 0)).toBe(2);
  });
});
