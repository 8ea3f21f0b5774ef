import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('group commit', () => {
  it('writes an item alone at once, and what arrives meanwhile together, in order and up to max', async () => {
    const runs: number[][] = [];
    const commit = createGroupCommit<number>(async (items) => {
      runs.push(items);
      await tick();
    }, 3);
    await Promise.all([1, 2, 3, 4, 5].map((n) => commit.add(n)));
    expect(runs).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('runs one batch at a time', async () => {
    let open = 0;
    let most = 0;
    const commit = createGroupCommit<number>(async () => {
      most = Math.max(most, ++open);
      await tick();
      open--;
    }, 1);
    await Promise.all([1, 2, 3, 4].map((n) => commit.add(n)));
    expect(most).toBe(1);
  });

  it('a failing batch is retried item by item: only the bad item fails its caller', async () => {
    const commit = createGroupCommit<number>(async (items) => {
      await tick();
      if (items.includes(3)) throw new Error('bad item');
    }, 10);
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });
});
