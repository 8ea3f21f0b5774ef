import type { AddressInfo } from 'node:net';
import { defineJob } from '@herald/shared/jobs/job-definition';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { signupVerified } from '../support/accounts.ts';
import { openEvents } from '../support/sse.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { AFTERWARDS_MS, waitUntil } from '../support/wait.ts';

const PROGRESS = defineJob('test-progress', z.object({ steps: z.number() }));
const FAILING = defineJob('test-failing', z.object({}));
const SLOW = defineJob('test-slow', z.object({}));

describe.each(databases)('live events and jobs on %s', (kind) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { heartbeatMs: 200 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('delivers a job’s progress to its owner only, and lists it as a process', async () => {
    const alice = await signupVerified(t);
    const bob = await signupVerified(t);
    await t.app.services.jobs.registerProcess(PROGRESS, async (data, context) => {
      for (let i = 1; i <= data.steps; i++) await context.reportProgress((i / data.steps) * 90);
    });
    const aliceStream = openEvents(port, alice.token);
    const bobStream = openEvents(port, bob.token);
    await Promise.all([aliceStream.opened, bobStream.opened]);
    expect(aliceStream.status()).toBe(200);

    const process = await t.app.services.jobs.enqueueProcess(
      PROGRESS,
      { steps: 3 },
      { teamId: alice.user.team_id, userId: alice.user.id, title: 'contacts.csv' },
    );
    const done = await aliceStream.waitFor(
      (m) => m.event === 'ProcessStatus' && JSON.parse(m.data ?? '{}').status === 'completed',
    );
    expect(JSON.parse(done.data as string)).toMatchObject({ id: process.id, title: 'contacts.csv', progress: 100 });
    const progressValues = aliceStream.messages.map((m) => JSON.parse(m.data as string).progress);
    expect(progressValues).toEqual(expect.arrayContaining([0, 30, 60, 90, 100]));
    expect(bobStream.messages.filter((m) => m.event === 'ProcessStatus')).toHaveLength(0);

    const list = await t.request({ method: 'GET', url: '/api/processes', token: alice.token });
    expect(list.json().data[0]).toMatchObject({ id: process.id, status: 'completed', progress: 100 });
    expect((await t.request({ method: 'GET', url: '/api/processes', token: bob.token })).json().data).toHaveLength(0);

    const cleared = await t.request({ method: 'DELETE', url: '/api/processes/finished', token: alice.token });
    expect(cleared.json()).toEqual({ cleared: 1 });
    expect((await t.request({ method: 'GET', url: '/api/processes', token: alice.token })).json().data).toHaveLength(0);

    // Heartbeats keep proxies from closing an idle stream.
    await waitUntil('a heartbeat', () => aliceStream.comments.some((c) => c.includes('heartbeat')));
    expect(aliceStream.comments.some((c) => c.includes('heartbeat'))).toBe(true);
    aliceStream.close();
    bobStream.close();
  });

  it('marks a job that throws as failed with its failure code, never its own words', async () => {
    const owner = await signupVerified(t);
    await t.app.services.jobs.registerProcess(FAILING, async () => {
      throw Object.assign(new Error('The file is not a spreadsheet'), { code: 'import_file_broken' });
    });
    const stream = openEvents(port, owner.token);
    await stream.opened;
    await t.app.services.jobs.enqueueProcess(
      FAILING,
      {},
      { teamId: owner.user.team_id, userId: owner.user.id, title: 'bad.xlsx' },
    );
    const failed = await stream.waitFor((m) => JSON.parse(m.data ?? '{}').status === 'failed');
    expect(JSON.parse(failed.data as string).message).toEqual({ code: 'import_file_broken', params: {} });
    stream.close();
  });

  it('replays missed events after Last-Event-ID and delivers team events to every member', async () => {
    const owner = await signupVerified(t);
    const first = openEvents(port, owner.token);
    await first.opened;
    await t.app.services.bus.publish(
      { teamId: owner.user.team_id },
      { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: 1 } },
    );
    const seen = await first.waitFor((m) => m.event === 'TeamOperatorAction');
    first.close();
    await t.app.services.bus.publish(
      { teamId: owner.user.team_id },
      { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: 2 } },
    );
    // Missed: in this process's recent events (on PostgreSQL, once LISTEN/NOTIFY has brought it back).
    await waitUntil('the missed event in the history', () =>
      t.app.services.bus
        .since(Number(seen.id))
        .some((e) => e.event.type === 'TeamOperatorAction' && (e.event.payload as { user_id: number }).user_id === 2),
    );
    const again = openEvents(port, owner.token, { 'last-event-id': seen.id as string });
    await again.opened;
    const missed = await again.waitFor((m) => m.event === 'TeamOperatorAction');
    expect(JSON.parse(missed.data as string).user_id).toBe(2);
    again.close();
  });

  it('refuses the stream without a valid token', async () => {
    const stream = openEvents(port, 'not-a-token');
    await stream.opened;
    expect(stream.status()).toBe(401);
    stream.close();
  });
});

describe('embedded database in a worker thread', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('embedded');
  });
  afterAll(() => t?.close());

  it('keeps GET /api/health answering during a 1-second query', async () => {
    const baseline = await t.request({ method: 'GET', url: '/api/health' });
    expect(baseline.statusCode).toBe(200);
    const slow = t.app.services.database.executeSql('select pg_sleep(1)');
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const elapsed = performance.now() - started;
    await slow;
    expect(res.statusCode).toBe(200);
    // Waiting for the database thread would take the query's remaining ~950 ms; an answer of its
    // own takes a few ms, or a few hundred on a loaded machine.
    expect(elapsed).toBeLessThan(500);
  });

  it('rolls back a failed transaction while a concurrent read waits and sees the committed value', async () => {
    const db = t.app.services.database.db;
    const team = await db.insertInto('teams').values({ name: 'before' }).returning('id').executeTakeFirstOrThrow();
    const failing = db
      .transaction()
      .execute(async (tx) => {
        await tx.updateTable('teams').set({ name: 'inside' }).where('id', '=', team.id).execute();
        await new Promise((r) => setTimeout(r, 100));
        throw new Error('abort');
      })
      .catch((e: Error) => e.message);
    await new Promise((r) => setTimeout(r, 20));
    const read = db.selectFrom('teams').select('name').where('id', '=', team.id).executeTakeFirstOrThrow();
    expect(await failing).toBe('abort');
    expect((await read).name).toBe('before');
  });
});

describe('graceful shutdown', () => {
  it('lets a running job finish before the app closes', async () => {
    const t = await startTestApp('embedded');
    const owner = await signupVerified(t);
    let finished = false;
    let started = false;
    await t.app.services.jobs.registerProcess(SLOW, async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 700));
      finished = true;
    });
    await t.app.services.jobs.enqueueProcess(
      SLOW,
      {},
      { teamId: owner.user.team_id, userId: owner.user.id, title: 'slow' },
    );
    await waitUntil('the job to start', () => started, AFTERWARDS_MS, 20);
    expect(started).toBe(true);
    await t.close();
    expect(finished).toBe(true);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('events across processes on postgres', () => {
  it('reaches a browser connected to another API process through LISTEN/NOTIFY', async () => {
    const a = await startTestApp('postgres');
    const b = await startTestApp('postgres', { HERALD_ROLE: 'api' }, { shareDatabaseWith: a });
    try {
      await b.app.listen({ host: '127.0.0.1', port: 0 });
      const owner = await signupVerified(a);
      const stream = openEvents((b.app.server.address() as AddressInfo).port, owner.token);
      // Subscribed before its headers were sent (events.routes.ts): nothing to wait for.
      await stream.opened;
      await a.app.services.bus.publish(
        { teamId: owner.user.team_id },
        { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: 7 } },
      );
      const got = await stream.waitFor((m) => m.event === 'TeamOperatorAction');
      expect(JSON.parse(got.data as string)).toEqual({ action: 'lead_created', user_id: 7 });
      stream.close();
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('stays inside its deployment: an app on another schema of the same database hears nothing', async () => {
    const a = await startTestApp('postgres');
    const other = await startTestApp('postgres');
    try {
      const heard: string[] = [];
      const unsubscribe = other.app.services.bus.subscribe((e) => heard.push(e.event.type));
      const own: string[] = [];
      const unsubscribeOwn = a.app.services.bus.subscribe((e) => own.push(e.event.type));
      await a.app.services.bus.publish(
        { teamId: 1 },
        { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: 1 } },
      );
      await vi.waitFor(() => expect(own).toEqual(['TeamOperatorAction']), { timeout: 5_000 });
      // Delivered to its own app, so a leak would have reached the other by now as well.
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toEqual([]);
      unsubscribe();
      unsubscribeOwn();
    } finally {
      await other.close();
      await a.close();
    }
  });
});
