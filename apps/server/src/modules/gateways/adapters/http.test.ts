import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './http.ts';

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
