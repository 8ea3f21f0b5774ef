import { describe, expect, it } from 'vitest';
import { heldSlices } from './slice-sizer.ts';

describe('heldSlices', () => {
  const options = { targetMs: 100, first: 250, min: 100, max: 2_000 };

  it('starts at the first size and shrinks at once to the rows an overlong hold allows', () => {
    const s = heldSlices(options);
    expect(s.size()).toBe(250);
    s.held(250, 500); // 0.5 rows/ms: 50 rows fit 100 ms, the floor is 100
    expect(s.size()).toBe(100);
  });

  it('grows by at most half a chunk at a time when holds are short', () => {
    const s = heldSlices(options);
    s.held(250, 10); // 25 rows/ms would allow 2,500
    expect(s.size()).toBe(375);
    s.held(375, 15);
    expect(s.size()).toBe(563);
  });

  it('settles on the size whose hold is the target, within its bounds', () => {
    const s = heldSlices(options);
    for (let i = 0; i < 20; i++) s.held(s.size(), s.size() / 4); // 4 rows/ms: 400 rows in 100 ms
    expect(s.size()).toBe(400);
    const capped = heldSlices(options);
    for (let i = 0; i < 20; i++) capped.held(capped.size(), capped.size() / 100);
    expect(capped.size()).toBe(2_000);
  });

  it('does not let one slow chunk among fast ones stall the import at the floor', () => {
    const s = heldSlices(options);
    for (let i = 0; i < 10; i++) s.held(s.size(), s.size() / 4);
    s.held(s.size(), s.size()); // one chunk four times slower than the rest
    expect(s.size()).toBe(100);
    s.held(100, 25);
    expect(s.size()).toBeGreaterThan(100);
  });
});
