import { describe, expect, it } from 'vitest';
import { randomCode } from './short-link-codes.ts';

describe('random codes', () => {
  it('are base-62 of the asked length', () => {
    for (const length of [7, 9, 15]) expect(randomCode(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });
  it('use the whole alphabet about evenly and do not repeat', () => {
    const counts = new Map<string, number>();
    const codes = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const code = randomCode(7);
      codes.add(code);
      for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(codes.size).toBe(5_000);
    expect(counts.size).toBe(62);
    // 35,000 characters: about 565 each; a biased draw (byte % 62 without rejection) would skew the first 8.
    for (const n of counts.values()) expect(n).toBeGreaterThan(400);
  });
});
