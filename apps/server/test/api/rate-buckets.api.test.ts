import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveBackTokens, takeTokens } from '../../src/jobs/rate-buckets.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Token buckets in the database (decision 024): one rate for every worker of every process. The
 * clock is the test's (`at`), so refills are exact and nothing waits on wall time.
 */
describe.each(databases)('rate buckets on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.app.services.database.db;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  let n = 0;
  const bucket = (rate: number, burst: number) => ({ key: `test:${kind}:${++n}`, rate, burst });

  it('starts full, grants what it holds, refills at its rate up to its burst, and says how long to wait', async () => {
    const b = bucket(2, 5);
    expect(await takeTokens(db(), [b], 3, at(0))).toEqual({ granted: 3, waitMs: 0 });
    // Two of five: the other three take 1.5 s at 2 a second.
    expect(await takeTokens(db(), [b], 5, at(0))).toEqual({ granted: 2, waitMs: 1_500 });
    expect(await takeTokens(db(), [b], 1, at(0))).toEqual({ granted: 0, waitMs: 500 });
    // A second later: two tokens (2 a second).
    expect((await takeTokens(db(), [b], 10, at(1_000))).granted).toBe(2);
    // An hour later: the burst, no more.
    expect((await takeTokens(db(), [b], 100, at(3_600_000))).granted).toBe(5);
  });

  it('grants across several buckets what the scarcest holds, taken from each', async () => {
    const wide = bucket(100, 100);
    const narrow = bucket(1, 3);
    expect((await takeTokens(db(), [wide, narrow], 10, at(0))).granted).toBe(3);
    expect((await takeTokens(db(), [wide], 1_000, at(0))).granted).toBe(97);
  });

  it('takes back what was given back (a 429), never past the burst', async () => {
    const b = bucket(1, 4);
    expect((await takeTokens(db(), [b], 4, at(0))).granted).toBe(4);
    await giveBackTokens(db(), [b.key], 3);
    expect((await takeTokens(db(), [b], 10, at(0))).granted).toBe(3);
    await giveBackTokens(db(), [b.key], 50);
    expect((await takeTokens(db(), [b], 10, at(0))).granted).toBe(4);
  });

  it('never grants more than it holds to takers at the same moment', async () => {
    const b = bucket(1, 10);
    const a = bucket(1, 10);
    // Two buckets in both orders at once: locked in key order, so no taker deadlocks another.
    const takes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => takeTokens(db(), i % 2 ? [b, a] : [a, b], 1, at(0))),
    );
    expect(takes.reduce((sum, x) => sum + x.granted, 0)).toBe(10);
  });
});
