import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TImportStatusEvent } from '@herald/shared/imports/imports.schemas';
import type { DB } from '../../src/db/schema.ts';
import { createFailedRowsRepository } from '../../src/modules/imports/failed-rows.repository.ts';
import { createImportHousekeeping } from '../../src/modules/imports/import-housekeeping.ts';
import { createImportStaging } from '../../src/modules/imports/import-staging.repository.ts';
import { createImportsRepository } from '../../src/modules/imports/imports.repository.ts';
import { IMPORT_JOB } from '../../src/modules/imports/imports.jobs.ts';
import { IMPORT_JOB_EXPIRE_SECONDS } from '../../src/modules/imports/index.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createAttribute, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { AFTERWARDS_MS, waitUntil } from '../support/wait.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import {
  type ImportDoc,
  importFile,
  mapColumns,
  multipart,
  startImport,
  upload,
  waitForImport,
} from '../fixtures/imports/import-client.ts';

/** What imports leave behind and what they refuse up front (decision 009, "Housekeeping"). */
describe.each(databases)('import housekeeping and limits on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let listId: number;
  let attrs: Record<string, number>;
  const filesDir = () => join(t.dataDir, 'files');
  const files = () => (existsSync(filesDir()) ? readdirSync(filesDir()) : []);
  const stored = async (id: number) =>
    await db
      .selectFrom('import_files')
      .select(['stored_name', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
    attrs = await attributeIds(t, owner.token);
    listId = (await sourceWithList(t, owner.token)).list.id;
  });
  afterAll(() => t?.close());

  it('lets an import run for as long as pg-boss allows (its default 15 minutes aborted long files)', async () => {
    const queue = await t.app.services.jobs.boss.getQueue(IMPORT_JOB.name);
    expect(queue?.expireInSeconds).toBe(IMPORT_JOB_EXPIRE_SECONDS);
  });

  it('refuses a file with more columns than Match Format takes, and keeps nothing of it', async () => {
    const before = files().length;
    const header = Array.from({ length: 501 }, (_, i) => `c${i}`).join(',');
    const res = await upload(t, owner.token, listId, 'wide.csv', csv([header, header.replaceAll('c', '1')]));
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('import_file_too_many_columns');
    expect(files().length).toBe(before);
    const ok = await upload(t, owner.token, listId, 'fine.csv', csv([header.split(',').slice(0, 500).join(','), '1']));
    expect(ok.statusCode).toBe(201);
  });

  it('answers a list id past the database’s range as a missing list, not a server error', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/imports',
      token: owner.token,
      ...multipart(
        { 'list_id[0]': '99999999999999999999', black_list: '0' },
        { name: 'a.csv', content: csv(['Phone', '+380501234567']) },
      ),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('import_list_required');
  });

  it('keeps the first failed rows of an import by count, in row order, whatever their numbers', async () => {
    const res = await upload(t, owner.token, listId, 'f.csv', csv(['Phone', '+380501234567']));
    const id = res.json().id as number;
    const failedRows = createFailedRowsRepository(db);
    const row = (n: number) => ({ row: n, reason: `bad ${n}`, cells: [] });
    await failedRows.add(owner.user.team_id, id, [row(150_000), row(9), row(120_000), row(7)], 3);
    const kept = async () =>
      (
        await db
          .selectFrom('import_failed_rows')
          .select('row_number')
          .where('import_file_id', '=', id)
          .orderBy('row_number')
          .execute()
      ).map((r) => r.row_number);
    expect(await kept()).toEqual([7, 9, 120_000]);
    // A re-run sends the same rows again: they take no room, and nothing past the cap comes in.
    await failedRows.add(owner.user.team_id, id, [row(7), row(9), row(120_000), row(200_000)], 3);
    expect(await kept()).toEqual([7, 9, 120_000]);
    await failedRows.add(owner.user.team_id, id, [row(7), row(150_000)], 4);
    expect(await kept()).toEqual([7, 9, 120_000, 150_000]);
  });

  it('refuses to run a file mapped to an attribute deleted since', async () => {
    const city = await createAttribute(t, owner.token, `City ${kind}`);
    const res = await upload(t, owner.token, listId, 'stale.csv', csv(['Phone,Town', '+380501234567,Kyiv']));
    const doc = res.json() as ImportDoc;
    await mapColumns(t, owner.token, doc, { Phone: attrs.phone, Town: city });
    expect(
      (await t.request({ method: 'DELETE', url: `/api/lead-attributes/${city}`, token: owner.token })).statusCode,
    ).toBe(200);
    const run = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(run.statusCode).toBe(409);
    expect(run.json().code).toBe('import_mapping_stale');
    expect((await stored(doc.id)).status).toBe('uploaded');
  });

  it('clears files nothing will read, abandoned uploads and staging tables of imports that are gone', async () => {
    const { upload: done } = await importFile(t, owner.token, listId, 'done.csv', csv(['Phone', '+380671112233']), {
      Phone: attrs.phone,
    });
    const abandoned = (await upload(t, owner.token, listId, 'left.csv', csv(['Phone', '+380671112234']))).json()
      .id as number;
    const fresh = (await upload(t, owner.token, listId, 'new.csv', csv(['Phone', '+380671112235']))).json()
      .id as number;
    await db
      .updateTable('import_files')
      .set({ created_at: sql`now() - interval '25 hours'` as never })
      .where('id', '=', abandoned)
      .execute();
    writeFileSync(join(filesDir(), 'stray.csv'), 'Phone\n+380671112236\n');
    const staging = createImportStaging(db);
    await sql.raw('create table import_rows_987654321_1 (row_no integer primary key)').execute(db);
    const ownTable = staging.tableName(fresh, 1);
    await sql.raw(`create table ${ownTable} (row_no integer primary key)`).execute(db);
    // Files younger than an hour may still be arriving: the old ones are made old.
    const old = new Date(Date.now() - 2 * 3_600_000);
    const names = { done: (await stored(done.id)).stored_name, abandoned: (await stored(abandoned)).stored_name };
    for (const name of [names.done, names.abandoned, 'stray.csv']) utimesSync(join(filesDir(), name), old, old);

    const housekeeping = createImportHousekeeping({ repo: createImportsRepository(db), staging, filesDir: filesDir() });
    const result = await housekeeping.run();
    expect(result.expiredUploads).toBe(1);
    const left = files();
    expect(left).not.toContain(names.done);
    expect(left).not.toContain(names.abandoned);
    expect(left).not.toContain('stray.csv');
    expect(left).toContain((await stored(fresh)).stored_name);
    expect((await stored(abandoned)).status).toBe('cancelled');
    expect((await stored(fresh)).status).toBe('uploaded');
    const tables = await sql<{ n: string }>`
      select tablename as n from pg_tables where schemaname = current_schema() and tablename like 'import_rows_%'`.execute(
      db,
    );
    expect(tables.rows.map((r) => r.n)).toEqual([ownTable]);
  });
});

/**
 * Imports that lose what they run on: their list (deleted under a running import, the key
 * cascades), their job (left queued when the process stopped between the status and the send), or
 * an attribute they map to. Chunks of one row keep a run going long enough to delete its list.
 */
describe.each(databases)('imports that lose their list, their job or an attribute on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 1, sweepEveryMs: 200 });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  it('ends its process as failed and drops its staging, instead of showing it running for good', async () => {
    const owner = await signupVerified(t);
    const events: TImportStatusEvent[] = [];
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      if (e.event.type === 'ImportStatus') events.push(e.event.payload);
    });
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Doomed');
    const phones = Array.from({ length: 400 }, (_, i) => `+38050${String(7_000_001 + i)}`);
    const doc = await startImport(t, owner.token, list.id, 'doomed.csv', csv(['Phone', ...phones]), {
      Phone: attrs.phone,
    });
    await waitUntil(
      'a few leads published',
      async () =>
        (await t.request({ method: 'GET', url: `/api/imports/${doc.id}`, token: owner.token })).json()
          .leads_processed >= 3,
      60_000,
    );
    const processId = (
      await db.selectFrom('import_files').select('process_id').where('id', '=', doc.id).executeTakeFirstOrThrow()
    ).process_id;
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/sources/lists/batch?ids[0]=${list.id}`,
      token: owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    let process: { status: string; message: { code: string } | null } | undefined;
    await waitUntil(
      'the process to fail',
      async () => {
        const processes = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json()
          .data as Array<{ id: number; status: string; message: { code: string } | null }>;
        process = processes.find((p) => p.id === Number(processId));
        return process?.status === 'failed';
      },
      AFTERWARDS_MS,
      50,
    );
    // A code the popover translates, not the server's English.
    expect(process).toMatchObject({ status: 'failed', message: { code: 'import_list_deleted', params: {} } });
    // The row says failed first; on PostgreSQL the import's events follow through LISTEN/NOTIFY.
    await waitUntil('the import’s failed event', () => events.some((e) => e.id === doc.id && e.stage === 'failed'));
    unsubscribe();
    // Its starter is told too ('Import failed!' with the reason), and an open progress modal ends.
    expect(events.filter((e) => e.id === doc.id).at(-1)).toMatchObject({
      stage: 'failed',
      status: 'failed',
      error_code: 'import_list_deleted',
      name: 'doomed.csv',
      leads_processed: 0,
    });
    // Dropped as the run ends, which may be just after its process row says failed.
    await vi.waitFor(async () => {
      const tables = await sql<{ n: string }>`
        select tablename as n from pg_tables where schemaname = current_schema() and tablename like ${`import_rows_${doc.id}_%`}`.execute(
        db,
      );
      expect(tables.rows).toEqual([]);
    }, AFTERWARDS_MS);
    expect(
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from leads where list_id = ${list.id}`.execute(db)).rows[0]
          .n,
      ),
    ).toBe(0);
  });
  it('is sent again by the sweep and runs', async () => {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Lost');
    const up = await upload(t, owner.token, list.id, 'lost.csv', csv(['Phone', '+380504440001', '+380504440002']));
    await mapColumns(t, owner.token, up.json() as ImportDoc, { Phone: attrs.phone });
    // What dispatch leaves when the process stops before its job is sent.
    const doc = up.json() as ImportDoc;
    await db
      .updateTable('import_files')
      .set({ status: 'queued', stage: 'parse', updated_at: sql`now() - interval '1 minute'` as never })
      .where('id', '=', doc.id)
      .execute();
    const result = await waitForImport(t, owner.token, doc.id);
    expect(result).toMatchObject({ status: 'completed', leads_processed: 2 });
  });

  it('fails a run whose mapped attribute was deleted after dispatch, importing nothing', async () => {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const town = await createAttribute(t, owner.token, `Town ${kind}`);
    const { list } = await sourceWithList(t, owner.token, 'Late delete');
    const up = await upload(t, owner.token, list.id, 'late.csv', csv(['Phone,Town', '+380504440003,Kyiv']));
    const doc = up.json() as ImportDoc;
    await mapColumns(t, owner.token, doc, { Phone: attrs.phone, Town: town });
    // Dispatched, its run not yet started (held here by a job not yet sent), when the attribute goes.
    await db.updateTable('import_files').set({ status: 'queued', stage: 'parse' }).where('id', '=', doc.id).execute();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/lead-attributes/${town}`, token: owner.token })).statusCode,
    ).toBe(200);
    await db
      .updateTable('import_files')
      .set({ updated_at: sql`now() - interval '1 minute'` as never })
      .where('id', '=', doc.id)
      .execute();
    const result = await waitForImport(t, owner.token, doc.id);
    expect(result).toMatchObject({ status: 'failed', error_code: 'import_attribute_deleted', leads_processed: 0 });
  });
});

/**
 * Deleting the list of an import that is publishing, on PostgreSQL: its chunks hold the import's
 * row two at a time, each taking it while the one before still has it, so the delete's lock on
 * that row would wait out the whole publish (decision 009, "Deleting the list of a running import").
 * So the delete cancels the run first. The embedded database runs one transaction at a time, so
 * there a delete never waited on more than one chunk.
 */
describe.each(databases.filter((k) => k === 'postgres'))('the list of a publishing import deleted on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 5_000 });
  });
  afterAll(() => t?.close());

  it('does not wait for the rest of the import', async () => {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Busy');
    const phones = Array.from({ length: 100_000 }, (_, i) => `+38050${String(1_000_000 + i).padStart(7, '0')}`);
    const doc = await startImport(t, owner.token, list.id, 'busy.csv', csv(['Phone', ...phones]), {
      Phone: attrs.phone,
    });
    await vi.waitFor(
      async () => {
        const now = (await t.request({ method: 'GET', url: `/api/imports/${doc.id}`, token: owner.token })).json();
        expect(now.leads_processed).toBeGreaterThanOrEqual(5_000);
      },
      { timeout: 60_000, interval: 50 },
    );
    // What the import told while the delete was on its way: how far it got publishing.
    let published = 0;
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      const p = e.event.payload as { id?: number; leads_processed?: number };
      if (e.event.type === 'ImportStatus' && p.id === doc.id) published = Math.max(published, p.leads_processed ?? 0);
    });
    const deleted = await t.request({ method: 'DELETE', url: `/api/sources/lists/${list.id}`, token: owner.token });
    unsubscribe();
    expect(deleted.statusCode).toBe(200);
    // Cancelled first, it stops after the chunks in flight (two of 5,000); waited out, it published
    // most of its 100,000 rows before the delete got in.
    expect(published).toBeLessThan(40_000);
    await vi.waitFor(
      async () => {
        const processes = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data;
        expect(processes[0]).toMatchObject({
          title: 'busy.csv',
          status: 'failed',
          message: { code: 'import_list_deleted' },
        });
      },
      { timeout: 30_000 },
    );
  });
});
