import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { startImport, waitForImport } from '../fixtures/imports/import-client.ts';
import { AFTERWARDS_MS } from '../support/wait.ts';

/**
 * An import stopped by something that is not the file's fault keeps what it published, and
 * `PUT sync-import/{id}` (the modal's "Resume import") goes on from there (decision 009).
 */
describe.each(databases)('resuming a failed import on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 50 });
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
  });
  afterAll(() => t?.close());

  const phonesOfList = async (listId: number) =>
    (
      await sql<{ n: number; distinct: number }>`
        select count(*)::int as n, count(distinct lv.value)::int as distinct
        from lead_values lv join leads l on l.id = lv.lead_id
        where l.list_id = ${listId} and lv.type = 'phone'`.execute(db)
    ).rows[0];

  it('goes on from where a database error stopped it once the cause is gone, each row exactly once', async () => {
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Resume');
    const phones = Array.from({ length: 300 }, (_, i) => `+38050${String(4_000_001 + i)}`);
    // An outage the import cannot help: writing the 201st row's phone fails (its chunk is 201–250).
    await sql`create function herald_test_outage() returns trigger language plpgsql as $$
      begin raise exception 'simulated outage'; end $$`.execute(db);
    await sql
      .raw(`create trigger herald_test_outage before insert on lead_values for each row
        when (new.value = '${phones[200]}') execute function herald_test_outage()`)
      .execute(db);
    const file = csv(['Phone,City', ...phones.map((p) => `${p},Rivne`)]);
    let id: number;
    try {
      const doc = await startImport(t, owner.token, list.id, 'resume.csv', file, { Phone: attrs.phone, City: 'City' });
      id = doc.id;
      const failed = await waitForImport(t, owner.token, id);
      expect(failed).toMatchObject({ status: 'failed', error_code: 'import_failed', resumable: true });
      expect(failed.error).toContain('simulated outage');
      // The four chunks before the outage stay, and nothing of the fifth.
      expect(failed.leads_processed).toBe(200);
      expect(await phonesOfList(list.id)).toEqual({ n: 200, distinct: 200 });
    } finally {
      await sql`drop trigger if exists herald_test_outage on lead_values`.execute(db);
      await sql`drop function if exists herald_test_outage()`.execute(db);
    }

    const resumed = await t.request({
      method: 'PUT',
      url: `/api/sync-import/${id}`,
      token: owner.token,
      payload: { status: 'pending' },
    });
    expect(resumed.statusCode).toBe(200);
    const done = await waitForImport(t, owner.token, id);
    expect(done).toMatchObject({
      status: 'completed',
      resumable: false,
      error: null,
      error_code: null,
      leads_processed: 300,
      parsed_leads_count: 300,
    });
    expect(await phonesOfList(list.id)).toEqual({ n: 300, distinct: 300 });
    // Dropped just after the import ends.
    await vi.waitFor(
      async () => {
        const tables = await sql<{ n: number }>`
        select count(*)::int as n from pg_tables
        where schemaname = current_schema() and tablename like ${`import_rows_${id}_%`}`.execute(db);
        expect(tables.rows[0].n).toBe(0);
      },
      { timeout: AFTERWARDS_MS },
    );
  });

  it('is not offered once completed, and another team cannot touch it', async () => {
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Done');
    const doc = await startImport(t, owner.token, list.id, 'done.csv', csv(['Phone', '+380504999999']), {
      Phone: attrs.phone,
    });
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'completed', resumable: false });
    const stranger = await signupVerified(t);
    const foreign = await t.request({
      method: 'PUT',
      url: `/api/sync-import/${doc.id}`,
      token: stranger.token,
      payload: { status: 'pending' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'completed', resumable: false });
  });
});
