import { describe, expect, it } from 'vitest';
import { timeLeftWords } from './lookup-text.ts';

describe('a lookup time left', () => {
  it('is unknown without a measured rate', () => {
    expect(timeLeftWords(null)).toBeNull();
    expect(timeLeftWords(-1)).toBeNull();
  });

  it('reads in seconds, then minutes rounded up, then hours and minutes', () => {
    expect(timeLeftWords(0)).toEqual({ key: 'timeLeft.seconds', values: { count: 0 } });
    expect(timeLeftWords(59.2)).toEqual({ key: 'timeLeft.minutes', values: { count: 1 } });
    expect(timeLeftWords(12)).toEqual({ key: 'timeLeft.seconds', values: { count: 12 } });
    expect(timeLeftWords(61)).toEqual({ key: 'timeLeft.minutes', values: { count: 2 } });
    expect(timeLeftWords(3599)).toEqual({ key: 'timeLeft.hours', values: { h: 1, m: 0 } });
    expect(timeLeftWords(3 * 3600 + 125)).toEqual({ key: 'timeLeft.hours', values: { h: 3, m: 3 } });
  });
});
