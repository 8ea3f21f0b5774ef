import { describe, expect, it } from 'vitest';
import type { PublishArgs } from './import-staging.repository.ts';
import { type SliceSizer, fixedSlices, heldSlices } from '../../db/slice-sizer.ts';
import { startPublisher } from './import-publisher.ts';

/** A staging table in memory: the row numbers staged so far (gaps where rows failed). */
function fakeStaging(options: { failAt?: number; delayMs?: number; heldMs?: (a: PublishArgs) => number } = {}) {
  const rows: number[] = [];
  const published: Array<{ lo: number; hi: number }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const staging = {
    async nextChunk(_table: string, from: number, size: number, upTo = Number.MAX_SAFE_INTEGER) {
      const part = rows.filter((r) => r > from && r <= upTo).slice(0, size);
      return part.length === 0 ? null : { hi: part[part.length - 1], rows: part.length };
    },
    async analyze() {},
    async publish(a: PublishArgs, turn: Promise<unknown>) {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        await new Promise((r) => setTimeout(r, options.delayMs ?? 1));
        await turn;
        if (options.failAt !== undefined && a.lo >= options.failAt) throw new Error(`chunk after ${a.lo} failed`);
        published.push({ lo: a.lo, hi: a.hi });
        return { leads: 0, heldMs: options.heldMs?.(a) ?? 1 };
      } finally {
        running--;
      }
    },
  };
  return { rows, published, staging, mostAtOnce: () => mostAtOnce };
}

const args = { table: 'import_rows_1_1' } as PublishArgs;

/** A publisher over `fake` in chunks of `chunkSize` (or sized by `chunks`), two at once, from mark `from`. */
function start(
  fake: ReturnType<typeof fakeStaging>,
  chunkSize: number | SliceSizer,
  from = 0,
  onChunk = async (_n: number) => {},
  concurrency = 2,
) {
  return startPublisher({
    staging: fake.staging as never,
    args,
    from,
    chunks: typeof chunkSize === 'number' ? fixedSlices(chunkSize) : chunkSize,
    concurrency,
    signal: new AbortController().signal,
    onChunk,
  });
}

describe('startPublisher', () => {
  it('publishes exact chunks in order while rows are still being staged, and the rest on close', async () => {
    const fake = fakeStaging();
    const told: number[] = [];
    const p = start(fake, 4, 0, async (n) => {
      told.push(n);
    });
    // Batches of 3 staged rows with gaps (row 5 and 9 failed), as a parse commits them.
    for (const batch of [
      [1, 2, 3],
      [4, 6, 7],
      [8, 10, 11],
      [12, 13],
    ]) {
      fake.rows.push(...batch);
      p.add(batch[batch.length - 1], batch.length);
      await new Promise((r) => setTimeout(r, 5));
    }
    // Two full chunks went out before the end of the file.
    expect(fake.published.slice(0, 2)).toEqual([
      { lo: 0, hi: 4 },
      { lo: 4, hi: 10 },
    ]);
    await p.close();
    expect(fake.published).toEqual([
      { lo: 0, hi: 4 },
      { lo: 4, hi: 10 },
      { lo: 10, hi: 13 },
    ]);
    expect(told).toEqual([4, 8, 11]);
    expect(p.failure()).toBeUndefined();
  });

  it('runs up to `concurrency` chunks at once and resumes from a mark', async () => {
    const fake = fakeStaging({ delayMs: 10 });
    fake.rows.push(...Array.from({ length: 40 }, (_, i) => i + 1));
    const p = start(fake, 8, 8);
    p.add(40, 32);
    await p.close();
    expect(fake.published.map((c) => c.hi)).toEqual([16, 24, 32, 40]);
    expect(fake.published[0].lo).toBe(8);
    expect(fake.mostAtOnce()).toBe(2);
  });

  it('stops at the first failed chunk and tells the parse', async () => {
    const fake = fakeStaging({ failAt: 4 });
    fake.rows.push(...Array.from({ length: 12 }, (_, i) => i + 1));
    const p = start(fake, 4);
    p.add(12, 12);
    await expect(p.close()).rejects.toThrow('chunk after 4 failed');
    expect(fake.published).toEqual([{ lo: 0, hi: 4 }]);
    expect((p.failure() as Error).message).toBe('chunk after 4 failed');
  });

  it('sizes each chunk from the holds of the chunks before it', async () => {
    // Each row holds the connection 1 ms: toward a 10 ms hold, chunks settle at 10 rows.
    const fake = fakeStaging({ heldMs: (a) => a.hi - a.lo });
    fake.rows.push(...Array.from({ length: 100 }, (_, i) => i + 1));
    const p = start(fake, heldSlices({ targetMs: 10, first: 40, min: 2, max: 50 }), 0, async () => {}, 1);
    p.add(100, 100);
    await p.close();
    const sizes = fake.published.map((c) => c.hi - c.lo);
    expect(sizes.slice(0, 3)).toEqual([40, 10, 10]);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
  });
});
