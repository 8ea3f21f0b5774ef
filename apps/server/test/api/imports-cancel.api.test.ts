import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TImportStatusEvent } from '@herald/shared/imports/imports.schemas';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList, staleValueMasks } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { AFTERWARDS_MS, waitUntil } from '../support/wait.ts';
import { csv, truncateSheetData, xlsx } from '../fixtures/imports/hostile-files.ts';
import { startImport, upload, waitForImport } from '../fixtures/imports/import-client.ts';

/** What the popover's badge says of a process: an import's phase while it runs (parsing reads Running). */
const shown = (p: TProcess) => (p.status === 'running' && p.phase && p.phase !== 'parsing' ? p.phase : p.status);

/** A lead of the team in a source of its own holding `phone`: the neighbour an import's duplicates touch. */
async function neighbourHolding(t: TestApp, token: string, phoneAttribute: number, phone: string, name = 'Neighbour') {
  const other = await sourceWithList(t, token, name);
  return (await createLead(t, token, other.source.id, other.list.id, [[phoneAttribute, phone]])).json().id as number;
}

/**
 * Cancelling an import (decision 009, "Cancelling"): nothing of it stays — leads it had published
 * are taken back with their values, Timeline and tallies, and the duplicate counts of the team's
 * other leads return to what they were. One lead a publishing transaction, so a run can be caught
 * halfway.
 */
describe.each(databases)('cancelling an import on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let attrs: Record<string, number>;
  const rows = 400;
  const file = () =>
    csv([
      'Phone,City',
      // The first row repeats the phone of a lead the team already has.
      '+380508880000,Kyiv',
      ...Array.from({ length: rows - 1 }, (_, i) => `+38050${String(9_000_001 + i)},Lviv`),
    ]);

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 1 });
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
    attrs = await attributeIds(t, owner.token);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, token = owner.token) =>
    t.request({ method: method as 'POST', url, token, ...(method === 'POST' ? { payload: {} } : {}) });
  const leadsOfList = async (listId: number) =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from leads where list_id = ${listId}`.execute(db)).rows[0].n,
    );
  const duplicatesOf = async (leadId: number) =>
    Number(
      (await db.selectFrom('leads').select('duplicates').where('id', '=', leadId).executeTakeFirstOrThrow()).duplicates,
    );
  /** Waits until the import has published some leads, among them the one that duplicates `neighbour`'s phone. */
  const halfwayThroughPublishing = (importId: number, neighbour: number) =>
    waitUntil(
      'the run halfway through publishing',
      async () => {
        const now = (await call('GET', `/api/imports/${importId}`)).json();
        return now.status === 'resolving' && now.leads_processed >= 5 && (await duplicatesOf(neighbour)) === 1;
      },
      // One lead a transaction on the one embedded connection, beside other test files: reaching
      // the publish has taken over a minute on a busy machine.
      150_000,
    );

  it('takes back the leads a running import had published, and restores its neighbours', async () => {
    const { source, list } = await sourceWithList(t, owner.token, 'Cancel');
    const existing = await neighbourHolding(t, owner.token, attrs.phone, '+380508880000', 'Existing');
    const processEvents: TProcess[] = [];
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      if (e.event.type === 'ProcessStatus') processEvents.push(e.event.payload);
    });
    const doc = await startImport(t, owner.token, list.id, 'cancel-me.csv', file(), {
      Phone: attrs.phone,
      City: 'City',
    });
    // Halfway through publishing: some leads are in, among them the one sharing a phone.
    await halfwayThroughPublishing(doc.id, existing);
    expect(await leadsOfList(list.id)).toBeGreaterThan(0);
    expect(await duplicatesOf(existing)).toBe(1);
    // One of its leads deleted by hand first: the take-back does not find it, and still nothing counts.
    const byHand = await sql<{ id: number }>`
      select id from leads where list_id = ${list.id} order by id desc limit 1`.execute(db);
    expect((await call('DELETE', `/api/leads/${byHand.rows[0].id}`)).statusCode).toBe(200);

    const cancelled = await call('POST', `/api/imports/${doc.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(['cancel_queued', 'cancelling']).toContain(cancelled.json().status);
    expect(cancelled.json()).toMatchObject({ stage: 'cancelling' });
    const done = await waitForImport(t, owner.token, doc.id);
    expect(done).toMatchObject({ status: 'cancelled', stage: 'cancelled', processed: true, leads_processed: 0 });
    expect(done.sync_import.status).toBe('cancelled');

    expect(await leadsOfList(list.id)).toBe(0);
    expect(await duplicatesOf(existing)).toBe(0);
    const tallies = await sql<{ n: number }>`
      select coalesce(sum(total), 0)::int as n from lead_counts where list_id = ${list.id}`.execute(db);
    expect(tallies.rows[0].n).toBe(0);
    const dangling = await sql<{ n: number }>`
      select (select count(*) from lead_values v where not exists (select 1 from leads l where l.id = v.lead_id))
        + (select count(*) from lead_logs g where not exists (select 1 from leads l where l.id = g.lead_id)) as n`.execute(
      db,
    );
    expect(Number(dangling.rows[0].n)).toBe(0);
    expect(await staleValueMasks(db, owner.user.team_id)).toBe(0);
    const row = await db
      .selectFrom('import_files')
      .select(['staging_table', 'process_id'])
      .where('id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(row.staging_table).toBeNull();
    const tables = await sql<{ n: number }>`
      select count(*)::int as n from pg_tables
      where schemaname = current_schema() and tablename like ${`import_rows_${doc.id}_%`}`.execute(db);
    expect(tables.rows[0].n).toBe(0);
    // The job queue closes the process right after the run returns, a moment after the import.
    await vi.waitFor(async () => {
      const processes = (await call('GET', '/api/processes')).json().data as Array<{ id: number; status: string }>;
      expect(processes.find((p) => p.id === Number(row.process_id))?.status).toBe('cancelled');
    }, AFTERWARDS_MS);
    // The row says cancelled first; on PostgreSQL its event follows through LISTEN/NOTIFY.
    await waitUntil('the process’s cancelled event', () =>
      processEvents.some((p) => p.id === Number(row.process_id) && p.status === 'cancelled'),
    );
    unsubscribe();
    // The popover said Cancelling while the leads went, not Running (migrations 0012, 0013).
    const statuses = processEvents.filter((p) => p.id === Number(row.process_id)).map(shown);
    expect(statuses).toContain('cancelling');
    expect(statuses.slice(statuses.indexOf('cancelling'))).not.toContain('running');
    expect(statuses.at(-1)).toBe('cancelled');
    const history = (await call('GET', '/api/imports')).json().data as Array<{ id: number; status: string }>;
    expect(history.find((h) => h.id === doc.id)?.status).toBe('cancelled');
    // A cancelled process is finished: Clear in the popover takes it away.
    expect(
      (await t.request({ method: 'DELETE', url: '/api/processes/finished', token: owner.token })).json().cleared,
    ).toBeGreaterThan(0);
    const left = (await call('GET', '/api/processes')).json().data as Array<{ id: number }>;
    expect(left.some((p) => p.id === Number(row.process_id))).toBe(false);

    // An ended import cannot be cancelled again; another team's is not found.
    const again = await call('POST', `/api/imports/${doc.id}/cancel`);
    expect([again.statusCode, again.json().code]).toEqual([409, 'import_not_cancellable']);
    const stranger = await signupVerified(t);
    expect((await call('POST', `/api/imports/${doc.id}/cancel`, stranger.token)).statusCode).toBe(404);
  }, 300_000);

  it('cancels an import at once after dispatch, and one never run', async () => {
    const { list } = await sourceWithList(t, owner.token, 'Early');
    const doc = await startImport(t, owner.token, list.id, 'early.csv', file(), { Phone: attrs.phone });
    expect((await call('POST', `/api/imports/${doc.id}/cancel`)).statusCode).toBe(200);
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'cancelled', cancellable: false });
    expect(await leadsOfList(list.id)).toBe(0);

    const idle = (await upload(t, owner.token, list.id, 'idle.csv', file())).json();
    const cancelled = await call('POST', `/api/imports/${idle.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', processed: true });
    expect((await call('POST', `/api/imports/${idle.id}/dispatch`)).statusCode).toBe(409);
  });
  it('takes back a failed import whose mapped attribute was deleted, reading its staged columns right', async () => {
    const { list } = await sourceWithList(t, owner.token, 'Deleted attribute');
    const existing = await neighbourHolding(t, owner.token, attrs.phone, '+380507770000');
    // City is staged first (c0), Phone second (c1): once City is gone, only the layout recorded at
    // parse time says which column holds the phones.
    const rows = [
      'Region,Phone',
      'North,+380507770000',
      ...Array.from({ length: 299 }, (_, i) => `North,+38050${String(6_000_001 + i)}`),
    ];
    const doc = await startImport(t, owner.token, list.id, 'regions.csv', csv(rows), {
      Region: 'Region',
      Phone: attrs.phone,
    });
    await halfwayThroughPublishing(doc.id, existing);
    expect(await duplicatesOf(existing)).toBe(1);
    const region = (await attributeIds(t, owner.token)).region;
    expect(
      (await t.request({ method: 'DELETE', url: `/api/lead-attributes/${region}`, token: owner.token })).statusCode,
    ).toBe(200);
    const failed = await waitForImport(t, owner.token, doc.id);
    // Resuming could not help (the attribute stays deleted): Cancel is the way out.
    // Not resumable (the attribute stays deleted), but cancellable: the web offers Cancel for it.
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: 'import_attribute_deleted',
      resumable: false,
      cancellable: true,
    });
    expect(failed.leads_processed).toBeGreaterThan(0);

    expect((await call('POST', `/api/imports/${doc.id}/cancel`)).statusCode).toBe(200);
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'cancelled' });
    expect(await leadsOfList(list.id)).toBe(0);
    expect(await duplicatesOf(existing)).toBe(0);
  });
});

/**
 * Publishing starts while the file is still read (decision 009, "Publishing while parsing"): a file
 * found broken after some of it was published takes that part back, so a failed parse still leaves
 * no lead behind.
 */
describe.each(databases)('a file found broken mid-import on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 1_000 });
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
  });
  afterAll(() => t?.close());

  it('takes back what it had published and fails', async () => {
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Broken');
    const existing = await neighbourHolding(t, owner.token, attrs.phone, '+380505000001');
    // 30,000 rows; inflating the sheet fails after ~25,500 of them.
    const rows = [
      ['Phone', 'City'],
      ...Array.from({ length: 30_000 }, (_, i) => [`+38050${String(5_000_001 + i)}`, 'Odesa']),
    ];
    const events: TImportStatusEvent[] = [];
    const processEvents: TProcess[] = [];
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      if (e.event.type === 'ImportStatus') events.push(e.event.payload);
      if (e.event.type === 'ProcessStatus') processEvents.push(e.event.payload);
    });
    const doc = await startImport(t, owner.token, list.id, 'broken.xlsx', truncateSheetData(await xlsx(rows), 0.85), {
      Phone: attrs.phone,
      City: 'City',
    });
    // Some chunks are published before the reader reaches the break.
    let published = 0;
    let ended: { status: string; error: string | null; error_code: string | null } | undefined;
    // Polled by time, not by count: a loaded machine answers each poll slower.
    for (const deadline = Date.now() + 120_000; !ended && Date.now() < deadline; ) {
      const now = (await t.request({ method: 'GET', url: `/api/imports/${doc.id}`, token: owner.token })).json();
      published = Math.max(published, now.leads_processed);
      if (['completed', 'failed'].includes(now.status)) ended = now;
      else await new Promise((r) => setTimeout(r, 10));
    }
    expect(published).toBeGreaterThan(0);
    expect(ended).toMatchObject({
      status: 'failed',
      error_code: 'import_file_broken',
      resumable: false,
      leads_processed: 0,
      processed: true,
      // Nothing of the file is kept: the bar does not stay at the take-back's 99%.
      progress: 0,
    });
    // The take-back is shown as it goes, with the file's error, before the import turns failed (the
    // event of which follows the row's update, so it may come just after the answer above).
    await vi.waitFor(
      () => expect(events.some((e) => e.id === doc.id && e.stage === 'failed')).toBe(true),
      AFTERWARDS_MS,
    );
    unsubscribe();
    const ours = events.filter((e) => e.id === doc.id);
    const rollingBack = ours.filter((e) => e.stage === 'rolling_back');
    expect(rollingBack.length).toBeGreaterThan(2);
    expect(rollingBack[0]).toMatchObject({ progress: 0, status: 'parsing', error_code: 'import_file_broken' });
    expect(rollingBack.every((e) => e.error && e.error === ended?.error)).toBe(true);
    const progress = rollingBack.map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeGreaterThanOrEqual(90);
    expect(ours.findIndex((e) => e.stage === 'failed')).toBeGreaterThan(
      ours.lastIndexOf(rollingBack[rollingBack.length - 1]),
    );
    // The popover said Failing with the file's error meanwhile, not Running (migration 0012).
    const process = processEvents.filter((p) => p.title === 'broken.xlsx');
    const failing = process.filter((p) => shown(p) === 'failing');
    expect(failing.length).toBeGreaterThan(2);
    expect(failing.every((p) => p.message?.code === 'import_file_broken')).toBe(true);
    expect(process.slice(process.indexOf(failing[0])).map(shown)).not.toContain('running');

    const left = await sql<{ n: number }>`select count(*)::int as n from leads where list_id = ${list.id}`.execute(db);
    expect(left.rows[0].n).toBe(0);
    const neighbour = await db
      .selectFrom('leads')
      .select('duplicates')
      .where('id', '=', existing)
      .executeTakeFirstOrThrow();
    expect(neighbour.duplicates).toBe(0);
    const row = await db
      .selectFrom('import_files')
      .select(['staging_table', 'published_upto'])
      .where('id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ staging_table: null, published_upto: 0 });
    // Dropped just after the import ends.
    await vi.waitFor(
      async () => {
        const tables = await sql<{ n: number }>`
        select count(*)::int as n from pg_tables
        where schemaname = current_schema() and tablename like ${`import_rows_${doc.id}_%`}`.execute(db);
        expect(tables.rows[0].n).toBe(0);
      },
      { timeout: AFTERWARDS_MS },
    );
    // The take-back is analyzed away (a new team's import plans by these statistics), and, of
    // 10,000 leads or more, vacuumed on the embedded database (no autovacuum there) as after a cancel.
    await vi.waitFor(
      async () => {
        const stats = await sql<{ analyzed: Date | null; vacuumed: Date | null }>`
          select last_analyze as analyzed, last_vacuum as vacuumed from pg_stat_user_tables
          where schemaname = current_schema() and relname = 'leads'`.execute(db);
        expect(stats.rows[0]?.analyzed).toBeTruthy();
        if (kind === 'embedded' && published >= 10_000) expect(stats.rows[0]?.vacuumed).toBeTruthy();
      },
      { timeout: AFTERWARDS_MS, interval: 200 },
    );
    // Nothing to resume: the import has ended.
    const resumed = await t.request({
      method: 'PUT',
      url: `/api/sync-import/${doc.id}`,
      token: owner.token,
      payload: { status: 'pending' },
    });
    expect(resumed.json().status).toBe('failed');
  });
});
