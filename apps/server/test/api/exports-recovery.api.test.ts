import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Exports outlive the process that ran them (migration 0008): a pending export whose run stopped
 * beating, or that never got a job, is sent again and starts over, a live one is left alone, and
 * finished files expire.
 */
describe.each(databases)('export recovery on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let token: string;
  let teamId: number;
  let userId: number;
  let audienceId: number;

  const call = (method: string, url: string, payload?: unknown) =>
    t.request({
      method: method as 'GET',
      url,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const exportRow = (id: number) => db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = await probe();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** An export row as a run that died would leave it: pending, claimed once, silent since `beat`. */
  async function deadRun(name: string, beat: string) {
    const row = await db
      .insertInto('exports')
      .values({
        team_id: teamId,
        user_id: userId,
        segment_id: audienceId,
        name,
        request: JSON.stringify({ name, attributes: [] }),
        rows: 2,
        progress: 40,
        attempt: 1,
        heartbeat_at: sql<Date>`now() - ${beat}::interval`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { sweepEveryMs: 100 });
    db = t.app.services.database.db as Kysely<DB>;
    const owner = await signupVerified(t);
    token = owner.token;
    teamId = owner.user.team_id;
    userId = owner.user.id;
    const attrs = await attributeIds(t, token);
    const place = await sourceWithList(t, token, 'Recovery');
    for (const phone of ['+380507770001', '+380507770002', '+380507770003']) {
      expect((await createLead(t, token, place.source.id, place.list.id, [[attrs.phone, phone]])).statusCode).toBe(201);
    }
    audienceId = (await call('POST', '/api/segments', { name: 'Everyone', ignore_new_leads: false })).json().id;
  });
  afterAll(() => t?.close());

  it('sends a dead run again: it starts over, completes and leaves no part file', async () => {
    const id = await deadRun('Dead run', '10 minutes');
    const leftover = join(t.dataDir, 'exports', String(teamId), `${id}-1.part`);
    mkdirSync(join(t.dataDir, 'exports', String(teamId)), { recursive: true });
    writeFileSync(leftover, 'half a file');

    const done = await until('the export to complete', async () => {
      const row = await exportRow(id);
      return row.status !== 'pending' && row;
    });
    expect(done).toMatchObject({ status: 'completed', rows: 3, progress: 100, attempt: 2, heartbeat_at: null });
    expect(existsSync(leftover)).toBe(false);
    const file = await t.request({ method: 'GET', url: `/api/exports/${id}/download`, token });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(3).toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(4);
  });

  it('sends a pending export that never got its job (the process stopped before the send)', async () => {
    // As a start that stopped between the export's row and its job leaves it: no run, no process.
    const row = await db
      .insertInto('exports')
      .values({
        team_id: teamId,
        user_id: userId,
        segment_id: audienceId,
        name: 'Never sent',
        request: JSON.stringify({ name: 'Never sent', attributes: [] }),
        created_at: sql<Date>`now() - interval '10 minutes'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);

    const done = await until('the export to complete', async () => {
      const current = await exportRow(id);
      return current.status !== 'pending' && current;
    });
    expect(done).toMatchObject({ status: 'completed', rows: 3, progress: 100, attempt: 1, heartbeat_at: null });
    const file = await t.request({ method: 'GET', url: `/api/exports/${id}/download`, token });
    expect(file.statusCode).toBe(200);
  });

  // Only on PostgreSQL can a run be alive elsewhere: another node may be running it.
  it.skipIf(kind === 'embedded')('leaves a pending export with a live run alone', async () => {
    const id = await deadRun('Live run', '0 seconds');
    // Many sweeps pass; none takes it (the stale limit is a minute).
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await exportRow(id)).toMatchObject({ status: 'pending', attempt: 1, rows: 2 });
  });

  // The embedded database belongs to this process: a run it is not running is dead, however recent its beat.
  it.skipIf(kind !== 'embedded')('sends a run this process is not running again, however recent its beat', async () => {
    const id = await deadRun('Not running here', '0 seconds');
    const done = await until('the export to complete', async () => {
      const row = await exportRow(id);
      return row.status !== 'pending' && row;
    });
    expect(done).toMatchObject({ status: 'completed', rows: 3, progress: 100, attempt: 2, heartbeat_at: null });
  });

  it('removes a finished file after its days are up; the download is then not found', async () => {
    const started = await call('POST', `/api/segments/${audienceId}/leads/csv`, { name: 'Kept', attributes: [] });
    expect(started.statusCode).toBe(202);
    const id = started.json().id as number;
    const done = await until('the export to complete', async () => {
      const row = await exportRow(id);
      return row.status === 'completed' && row;
    });
    const path = join(t.dataDir, 'exports', String(done.stored_name));
    expect(existsSync(path)).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/exports/${id}/download`, token })).statusCode).toBe(200);

    await db
      .updateTable('exports')
      .set({ completed_at: sql<Date>`now() - interval '8 days'` })
      .where('id', '=', id)
      .execute();
    await until('the file to expire', async () => !existsSync(path));
    expect((await exportRow(id)).stored_name).toBeNull();
    expect((await t.request({ method: 'GET', url: `/api/exports/${id}/download`, token })).statusCode).toBe(404);
  });
});
