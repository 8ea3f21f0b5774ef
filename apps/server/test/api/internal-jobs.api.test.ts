import { defineJob, JobPayloadError } from '@herald/shared/jobs/job-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobQueue } from '../../src/jobs/job-queue.ts';
import { signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const FLAKY = defineJob('test-flaky', z.object({ step: z.number() }));
const BROKEN = defineJob('test-broken', z.object({}));
const LATER = defineJob('test-later', z.object({}));
const CHUNK = defineJob('test-chunk', z.object({ chunk: z.string() }));
const TICK = defineJob('test-tick', z.object({ sweep: z.string() }));
const STRICT = defineJob('test-strict', z.object({ id: z.number().int().positive() }));

/**
 * Internal jobs (no process row, retried, delayed, one per key, on a schedule) next to the
 * user-visible ones, on the app's own queue.
 */
describe.each(databases)('internal jobs on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());
  const stateOf = async (name: string, id: string | null) =>
    (await t.app.services.jobs.boss.findJobs(name, { id: id as string }))[0]?.state;

  it('retries a job that failed, with its delay, and shows the owner no process', async () => {
    const owner = await signupVerified(t);
    const runs: Array<{ at: number; retryCount: number; step: number }> = [];
    await t.app.services.jobs.register(FLAKY, async (data, job) => {
      runs.push({ at: Date.now(), retryCount: job.retryCount, step: data.step });
      if (runs.length < 3) throw new Error('the gateway timed out');
    });
    const id = await t.app.services.jobs.send(FLAKY, { step: 2 }, { retryLimit: 3, retryDelay: 1 });
    expect(id).toEqual(expect.any(String));

    await until('the third run', () => runs.length >= 3);
    expect(runs.map((r) => [r.step, r.retryCount])).toEqual([
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    // Each retry waited for its delay (a second), not for the next poll alone.
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(900);
    await until('the job to complete', async () => (await stateOf('test-flaky', id)) === 'completed');
    expect((await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data).toEqual([]);
  });

  it('gives up after its retries', async () => {
    let runs = 0;
    await t.app.services.jobs.register(BROKEN, async () => {
      runs++;
      throw new Error('never works');
    });
    const id = await t.app.services.jobs.send(BROKEN, {}, { retryLimit: 1, retryDelay: 1 });
    await until('the job to fail', async () => (await stateOf('test-broken', id)) === 'failed');
    expect(runs).toBe(2);
  });

  it('runs a delayed job no sooner than its startAfter', async () => {
    const ran: number[] = [];
    await t.app.services.jobs.register(LATER, async () => {
      ran.push(Date.now());
    });
    const sentAt = Date.now();
    await t.app.services.jobs.send(LATER, {}, { startAfter: 2 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(ran).toEqual([]);
    await until('the delayed run', () => ran.length === 1);
    expect(ran[0] - sentAt).toBeGreaterThanOrEqual(1_900);
  });

  it('refuses a second job with a key that is already queued or running, on an exclusive queue', async () => {
    const ran: string[] = [];
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await t.app.services.jobs.register(
      CHUNK,
      async (data) => {
        ran.push(data.chunk);
        await held;
      },
      { policy: 'exclusive', concurrency: 2 },
    );
    const send = (chunk: string) => t.app.services.jobs.send(CHUNK, { chunk }, { singletonKey: chunk });
    expect(await send('campaign-1:0')).toEqual(expect.any(String));
    expect(await send('campaign-1:0')).toBeNull();
    await until('the first chunk to run', () => ran.length === 1);
    // Running now: still refused. Another key goes through.
    expect(await send('campaign-1:0')).toBeNull();
    expect(await send('campaign-1:1')).toEqual(expect.any(String));
    await until('the second chunk to run', () => ran.length === 2);
    release();
    expect(ran.sort()).toEqual(['campaign-1:0', 'campaign-1:1']);
  });

  it('sends a scheduled job by its cron, and no more once unscheduled', async () => {
    // A second process of the deployment (the app's job schema) whose clock looks at schedules every second.
    const { database } = t.app.services;
    const { rows } = await database.executeSql('select current_schema() as schema');
    const queue = createJobQueue({
      database,
      bus: t.app.services.bus,
      schema: kind === 'postgres' ? `${rows[0].schema}_jobs` : undefined,
      runWorkers: true,
      scheduleEverySeconds: 1,
    });
    await queue.start();
    try {
      const ticks: unknown[] = [];
      await queue.register(TICK, async (data) => {
        ticks.push(data);
      });
      // Every second: pg-boss sends a due schedule at most once a minute, so the first comes at once.
      await queue.schedule(TICK, '* * * * * *', { sweep: 'stats' });
      await until('the scheduled run', () => ticks.length > 0);
      expect(ticks[0]).toEqual({ sweep: 'stats' });
      await queue.unschedule(TICK);
      expect(await queue.boss.getSchedules('test-tick')).toEqual([]);
    } finally {
      await queue.stop(5_000);
    }
  });

  it('checks a payload against its job’s schema: a bad one throws when sent, and fails the job when run', async () => {
    const ran: unknown[] = [];
    await t.app.services.jobs.register(STRICT, async (data) => {
      ran.push(data);
    });
    // @ts-expect-error: the type says so too; the check is for what types cannot see (JSON, casts).
    const refused = t.app.services.jobs.send(STRICT, { id: 'seven' });
    await expect(refused).rejects.toThrow(JobPayloadError);
    await expect(refused).rejects.toThrow(/test-strict: payload refused at send: id:/);
    await expect(t.app.services.jobs.send(STRICT, { id: -1 })).rejects.toThrow(JobPayloadError);
    // One that reached the queue around the check (an older version's, or written by hand).
    const id = await t.app.services.jobs.boss.send(STRICT.name, { id: 'seven' }, { retryLimit: 0 });
    await until('the job to fail', async () => (await stateOf(STRICT.name, id)) === 'failed');
    const [failed] = await t.app.services.jobs.boss.findJobs(STRICT.name, { id: id as string });
    expect(JSON.stringify(failed.output)).toContain('payload refused at run');
    // A good one runs; the handler never saw the bad ones.
    await t.app.services.jobs.send(STRICT, { id: 7 });
    await until('the good run', () => ran.length === 1);
    expect(ran).toEqual([{ id: 7 }]);
  });
});
