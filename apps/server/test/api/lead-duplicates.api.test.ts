import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdTeamDuplicates } from '../../src/db/lead-store/lead-duplicates.ts';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { importFile } from '../fixtures/imports/import-client.ts';

/**
 * `leads.duplicates` (decision 007) after the writes that take many leads' phones at once, and the
 * team's duplicate lock every phone write takes (decision 009, "Imports side by side").
 */
describe.each(databases)('lead duplicates on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    // Leads go two a transaction when their list or source is deleted: the lists below take several.
    // Imports publish a row a transaction, so each row's recount sees the ones before.
    t = await startTestApp(kind, {}, { leadDeleteBatch: 2, importChunkRows: 1 });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  const leadsOfTeam = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/sources/total', token })).json().total_leads as number;
  const dup = async (token: string, id: number) =>
    (await t.request({ method: 'GET', url: `/api/leads/${id}`, token })).json().duplicates as number;

  /** Holds the team's duplicate lock in a transaction of its own, as an import's chunk does from its recount to its commit. */
  async function holdingTheLock(teamId: number) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const done = db.transaction().execute(async (tx) => {
      await holdTeamDuplicates(tx, teamId);
      locked();
      await held;
    });
    await lockTaken;
    return {
      async release() {
        release();
        await done;
      },
    };
  }

  /** Requests queued behind the team's duplicate lock (PostgreSQL): the sign that one has reached it. */
  async function waitingForTheLock(teamId: number) {
    const { rows } = await sql<{ n: number }>`
      with k as (select hashtextextended(${`herald.lead_duplicates.${teamId}`}, 0) as key)
      select count(*)::int as n from pg_locks, k
      where locktype = 'advisory' and not granted
        and classid::bigint = (k.key >> 32) & 4294967295 and objid::bigint = k.key & 4294967295`.execute(db);
    return rows[0].n;
  }

  it('recounts the leads left when a list or a source goes with the phones they shared', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const first = await sourceWithList(t, token, 'First');
    const again = await sourceWithList(t, token, 'Again');
    const other = await sourceWithList(t, token, 'Other');
    const lead = async (at: typeof first, phone: string) =>
      (await createLead(t, token, at.source.id, at.list.id, [[ids.phone, phone]])).json().id as number;
    // The first list imported again by mistake, and a third source sharing one phone with both.
    const a1 = await lead(first, '+380501110001');
    const a2 = await lead(first, '+380501110002');
    await lead(again, '+380501110001');
    await lead(again, '+380501110002');
    await lead(again, '+380501110003');
    const c2 = await lead(other, '+380501110002');
    expect([await dup(token, a1), await dup(token, a2), await dup(token, c2)]).toEqual([1, 2, 2]);

    const gone = await t.request({ method: 'DELETE', url: `/api/sources/lists/${again.list.id}`, token });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ deleted: 1 });
    expect((await t.request({ method: 'GET', url: `/api/sources/lists/${again.list.id}`, token })).statusCode).toBe(
      404,
    );
    expect(await leadsOfTeam(token)).toBe(3);
    expect([await dup(token, a1), await dup(token, a2), await dup(token, c2)]).toEqual([0, 1, 1]);
    const aggregations = await t.request({ method: 'GET', url: `/api/sources/${first.source.id}/aggregations`, token });
    expect(aggregations.json()).toMatchObject({ total_leads: 2, duplicate: 1 });

    expect((await t.request({ method: 'DELETE', url: `/api/sources/${other.source.id}`, token })).statusCode).toBe(200);
    expect([await dup(token, a1), await dup(token, a2)]).toEqual([0, 0]);
    expect(
      (await t.request({ method: 'GET', url: `/api/sources/${first.source.id}/aggregations`, token })).json(),
    ).toMatchObject({ total_leads: 2, duplicate: 0 });
  });

  it('counts every phone of an earlier lead when an import shares only one of them', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token, 'Existing');
    const lead = async (phones: string[]) =>
      (
        await createLead(
          t,
          token,
          source.id,
          list.id,
          phones.map((p) => [ids.phone, p] as [number, string]),
        )
      ).json().id as number;
    const e = await lead(['+380501110001', '+380501110002']);
    await lead(['+380501110001']);
    await lead(['+380501110001']);
    expect(await dup(token, e)).toBe(2);
    const target = await sourceWithList(t, token, 'Target');
    const { result } = await importFile(t, token, target.list.id, 'q.csv', csv(['Phone', '+380501110002']), {
      Phone: ids.phone,
    });
    expect(result.status).toBe('completed');
    // E shares its first phone with two leads and its second with the imported one.
    expect(await dup(token, e)).toBe(3);
  });

  it('counts a lead of a file whole when later rows share different phones of it', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { list } = await sourceWithList(t, token, 'Chunks');
    const rows = ['Phone,Phone 2', '+380502220001,+380502220002', '+380502220002,', '+380502220001,'];
    const { result } = await importFile(t, token, list.id, 'c.csv', csv(rows), {
      Phone: ids.phone,
      'Phone 2': ids.phone,
    });
    expect(result.status).toBe('completed');
    const page = (await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads?limit=10`, token })).json();
    const byId = [...page.data].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
    expect(byId.map((l: { duplicates: number }) => l.duplicates)).toEqual([2, 1, 1]);
  });

  it("leaves another team's duplicates alone when a list goes", async () => {
    const one = await signupVerified(t);
    const two = await signupVerified(t);
    const counts = [];
    for (const owner of [one, two]) {
      const ids = await attributeIds(t, owner.token);
      const { source, list } = await sourceWithList(t, owner.token, 'Same phones');
      for (let i = 0; i < 2; i++) {
        const created = await createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380502220001']]);
        counts.push({ token: owner.token, id: created.json().id as number, list: list.id });
      }
    }
    const [, , theirs] = counts;
    expect(
      (await t.request({ method: 'DELETE', url: `/api/sources/lists/${counts[0].list}`, token: one.token })).statusCode,
    ).toBe(200);
    expect(await dup(two.token, theirs.id)).toBe(1);
  });

  // One transaction at a time on the embedded database: there, nothing can write between a
  // recount and its commit, and a transaction held open here would stop the request itself.
  it.skipIf(kind === 'embedded')(
    'waits for the team’s duplicate lock before it writes a phone, so an import’s recount never misses it',
    async () => {
      const owner = await signupVerified(t);
      const ids = await attributeIds(t, owner.token);
      const { source, list } = await sourceWithList(t, owner.token, 'Locked');
      const first = (await createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380503330001']])).json();

      const chunk = await holdingTheLock(owner.user.team_id);
      const answered: string[] = [];
      const second = createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380503330001']]).then((r) => {
        answered.push('create');
        return r;
      });
      const removed = t.request({ method: 'DELETE', url: `/api/leads/${first.id}`, token: owner.token }).then((r) => {
        answered.push('delete');
        return r;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(answered).toEqual([]);
      await chunk.release();
      expect((await second).statusCode).toBe(201);
      expect((await removed).statusCode).toBe(200);
      expect(await dup(owner.token, (await second).json().id)).toBe(0);
    },
  );

  it.skipIf(kind === 'embedded')(
    'recounts the phone an edit overwrites as it stands, not as it was read before another edit',
    async () => {
      const owner = await signupVerified(t);
      const ids = await attributeIds(t, owner.token);
      const { source, list } = await sourceWithList(t, owner.token, 'Edits');
      const a = (await createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380504440001']])).json();
      const b = (await createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380504440002']])).json();
      const phoneOfA = a.lead_values[0].id as number;
      const edit = (value: string) =>
        t.request({ method: 'PUT', url: `/api/lead-phones/${phoneOfA}`, token: owner.token, payload: { value } });
      // Both edits read A's phone before either writes; the lock makes them queue in this order.
      const chunk = await holdingTheLock(owner.user.team_id);
      const toB = edit('+380504440002');
      await waitUntil(
        'the first edit to queue on the lock',
        async () => (await waitingForTheLock(owner.user.team_id)) >= 1,
      );
      const toNew = edit('+380504440003');
      await waitUntil(
        'the second edit to queue on the lock',
        async () => (await waitingForTheLock(owner.user.team_id)) >= 2,
      );
      await chunk.release();
      expect([(await toB).statusCode, (await toNew).statusCode]).toEqual([200, 200]);
      // A ends on the new phone: B shares nothing any more.
      const lead = (await t.request({ method: 'GET', url: `/api/leads/${a.id}`, token: owner.token })).json();
      expect(lead.lead_values[0].value).toBe('+380504440003');
      expect([await dup(owner.token, a.id), await dup(owner.token, b.id)]).toEqual([0, 0]);
      const log = (await t.request({ method: 'GET', url: `/api/leads/${a.id}/log`, token: owner.token })).json().data;
      const froms = log
        .flatMap((e: { diff_log: Array<{ value_from: string | null }> }) => e.diff_log.map((d) => d.value_from))
        .filter(Boolean);
      expect(froms).toEqual(expect.arrayContaining(['+380504440001', '+380504440002']));
    },
  );
});
