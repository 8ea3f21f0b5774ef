import { describe, expect, it } from 'vitest';
import { retryOnDeadlock } from './deadlock-retry.ts';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryOnDeadlock', () => {
  it('runs a transaction PostgreSQL ended for a deadlock again', async () => {
    let runs = 0;
    const result = await retryOnDeadlock(async () => {
      runs++;
      if (runs < 3) throw deadlock();
      return 'done';
    });
    expect([result, runs]).toEqual(['done', 3]);
  });

  it('gives up after the runs it was given, with the last error', async () => {
    let runs = 0;
    await expect(
      retryOnDeadlock(async () => {
        runs++;
        throw deadlock();
      }, 2),
    ).rejects.toThrow('deadlock detected');
    expect(runs).toBe(2);
  });

  it('does not run again on any other error', async () => {
    let runs = 0;
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(
      retryOnDeadlock(async () => {
        runs++;
        throw unique;
      }),
    ).rejects.toBe(unique);
    expect(runs).toBe(1);
  });
});
