import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { TServerEvent } from '@herald/shared/events/events.schemas';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList, staleValueMasks } from '../support/leads.ts';
import { type Owner, ownerApp } from '../support/owner-app.ts';
import { databases, type TestApp } from '../support/test-app.ts';
import { AFTERWARDS_MS, waitUntil } from '../support/wait.ts';
import { importFile, upload, waitForImport } from '../fixtures/imports/import-client.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { fixedSlices } from '../../src/db/slice-sizer.ts';
import { createImportStaging } from '../../src/modules/imports/import-staging.repository.ts';

describe.each(databases)('imports on %s', (kind) => {
  let t: TestApp;
  let owner: Owner;
  let attrs: Record<string, number>;
  ownerApp(kind, (app) => {
    ({ t, owner, attrs } = app);
  });
  const db = () => t.app.services.database.db as Kysely<any>;

  it('imports a CSV end to end: mapping, normalised values, duplicates, counts, log, history', async () => {
    const { source, list } = await sourceWithList(t, owner.token, 'Flow');
    // An existing lead whose phone the file repeats.
    const existing = await createLead(t, owner.token, source.id, list.id, [[attrs.phone, '+380501111111']]);
    expect(existing.statusCode).toBe(201);
    await t.request({
      method: 'PUT',
      url: '/api/validation-template/phone',
      token: owner.token,
      payload: { values: '+38067XXXXXXX' },
    });
    const version = async () =>
      Number(
        (await sql<{ v: number }>`select data_version as v from teams where id = ${owner.user.team_id}`.execute(db()))
          .rows[0].v,
      );
    const versionBefore = await version();
    const events: TServerEvent[] = [];
    const unsubscribe = t.app.services.bus.subscribe((e) => events.push(e.event));

    const file = csv([
      'Phone,E-mail,City,Note',
      '0501111111,ANNA@example.com,Lviv,existing phone',
      '380502222222,b@example.com,Kyiv,',
      '+38 (050) 222-22-22,c@example.com,Odesa,same phone as row 2',
      '3.80503333333E+11,,Dnipro,scientific',
      'not-a-phone,d@example.com,Kharkiv,invalid',
      '+380671234567,,Poltava,ignored format',
      ',,,',
      '050 444 44 44,bad-email,Sumy,invalid email',
    ]);
    const up = await upload(t, owner.token, list.id, 'leads.csv', file);
    expect(up.statusCode).toBe(201);
    const doc = up.json();
    expect(doc).toMatchObject({
      status: 'uploaded',
      format: 'csv',
      delimiter: ',',
      encoding: 'utf-8',
      name: 'leads.csv',
    });
    expect(doc.attributes.map((c: { name: string }) => c.name)).toEqual(['Phone', 'E-mail', 'City', 'Note']);
    // Proposed: Phone → phone, E-mail → email, the rest for the user to decide.
    expect(doc.attributes.map((c: { lead_attribute_id: number | null }) => c.lead_attribute_id)).toEqual([
      attrs.phone,
      attrs.email,
      null,
      null,
    ]);
    expect(doc.preview[0]).toEqual(['0501111111', 'ANNA@example.com', 'Lviv', 'existing phone']);

    const list2 = doc.attributes.map((c: { id: number; name: string }) =>
      c.name === 'City'
        ? { processing_document_attribute_id: c.id, name: 'City' }
        : c.name === 'Note'
          ? { processing_document_attribute_id: c.id, ignore: true }
          : c.name === 'E-mail'
            ? { processing_document_attribute_id: c.id, name: 'email' } // equal to an existing name: maps to it
            : { processing_document_attribute_id: c.id, lead_attribute_id: attrs.phone },
    );
    // A carrier lookup on completion is the lookup-results test's (check_mobile_status); '0' asks none.
    expect((await attributeIds(t, owner.token)).city).toBeUndefined();
    const mapped = await t.request({
      method: 'POST',
      url: `/api/sync-import/${doc.id}/import-attributes/multiple`,
      token: owner.token,
      payload: { list: list2, check_mobile_status: '0' },
    });
    expect(mapped.statusCode).toBe(200);
    const after = await attributeIds(t, owner.token);
    expect(after.city).toBeGreaterThan(0);
    expect(mapped.json().attributes.map((c: { lead_attribute_id: number | null }) => c.lead_attribute_id)).toEqual([
      attrs.phone,
      attrs.email,
      after.city,
      null,
    ]);

    const run = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(run.statusCode).toBe(200);
    // The task is in the popover at once, Running, titled with the file name.
    const processes = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data;
    expect(processes[0]).toMatchObject({ title: 'leads.csv', kind: 'imports.run' });
    expect(['running', 'resolving', 'completed']).toContain(processes[0].status);
    const again = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(again.statusCode).toBe(409);

    const result = await waitForImport(t, owner.token, doc.id);
    const stagesSeen = () =>
      events.filter((e) => e.type === 'ImportStatus').map((e) => (e.payload as { stage: string }).stage);
    // On PostgreSQL events come through LISTEN/NOTIFY and may follow the row that says completed.
    await waitUntil('the import’s stage events', () =>
      ['parse_finished', 'start_resolve_duplicates', 'resolve_duplicates', 'end_resolve_duplicates'].every((s) =>
        stagesSeen().includes(s),
      ),
    );
    unsubscribe();
    expect(result).toMatchObject({
      status: 'completed',
      processed: true,
      parsed_leads_count: 7,
      // The ignored phone is dropped but its row keeps City, as a manual create would.
      leads_processed: 5,
      leads_failed: 2,
      ignored_phones_count: 1,
      invalid_format_phones_count: 1,
      // Row 1 repeats the team's earlier lead, row 3 repeats row 2: two duplicates; rows 2, 4 and
      // the ignored phone's row are unique, and that last one holds no phone.
      duplicates_resolved_count: 2,
      leads_total: 3,
      leads_without_phone: 1,
      sync_import: { status: 'completed', progress: 100 },
    });
    const stages = events.filter((e) => e.type === 'ImportStatus').map((e) => (e.payload as { stage: string }).stage);
    expect(stages[0]).toBe('parse');
    for (const stage of [
      'parse_finished',
      'start_resolve_duplicates',
      'resolve_duplicates',
      'end_resolve_duplicates',
    ]) {
      expect(stages).toContain(stage);
    }
    // The process row is closed by the job queue right after the run returns, a moment after the import.
    await vi.waitFor(async () => {
      const finalProcess = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json()
        .data[0];
      expect(finalProcess).toMatchObject({ status: 'completed', progress: 100 });
    }, AFTERWARDS_MS);

    // The list now holds the existing lead and four imported ones, with normalised values.
    const leads = (
      await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads?limit=50`, token: owner.token })
    ).json();
    expect(leads.meta.total).toBe(6);
    const byPhone = new Map<
      string,
      { id: number; duplicates: number; status: string; lead_values: Array<{ value: string }> }
    >();
    for (const lead of leads.data) {
      const phone = lead.lead_values.find((v: { attribute: { type: string } }) => v.attribute.type === 'phone');
      byPhone.set(`${phone?.value}:${lead.id === existing.json().id ? 'old' : 'new'}`, lead);
    }
    expect(byPhone.get('+380501111111:old')?.duplicates).toBe(1);
    expect(byPhone.get('+380501111111:new')?.duplicates).toBe(1);
    expect(byPhone.get('+380502222222:new')?.duplicates).toBe(1);
    expect(byPhone.get('+380503333333:new')?.duplicates).toBe(0);
    const anna = byPhone.get('+380501111111:new');
    expect(anna?.lead_values.map((v) => v.value).sort()).toEqual(['+380501111111', 'Lviv', 'anna@example.com']);
    const counts = (
      await t.request({ method: 'GET', url: `/api/sources/lists/${list.id}`, token: owner.token })
    ).json();
    expect(counts).toMatchObject({ total_leads: 6, duplicate: 4 });
    expect(byPhone.get('undefined:new')?.lead_values.map((v) => v.value)).toEqual(['Poltava']);
    expect(await version()).toBeGreaterThan(versionBefore);
    // Imported leads carry their presence bits, written with the leads (migration 0007).
    expect(await staleValueMasks(db(), owner.user.team_id)).toBe(0);
    const bare = await sql<{ n: number }>`
      select count(*)::int as n from leads where team_id = ${owner.user.team_id} and value_mask = 0`.execute(db());
    expect(bare.rows[0].n).toBe(0);
    // The Timeline shows what the lead was created with, rendered from the compact entry (0010).
    const log = (await t.request({ method: 'GET', url: `/api/leads/${anna?.id}/log`, token: owner.token })).json();
    expect(log.data[0]).toMatchObject({ type: 'lead', action: 'created', filename: 'leads.csv' });
    const created = log.data[0].diff_log as Array<Record<string, unknown>>;
    expect(created.map((e) => e.value_to).sort()).toEqual(['+380501111111', 'Lviv', 'anna@example.com']);
    expect(created.find((e) => e.value_to === 'Lviv')).toEqual({
      action: 'added',
      lead_attribute_name: 'City',
      lead_attribute_value: 'Lviv',
      value_from: null,
      value_to: 'Lviv',
    });

    // History and failed rows.
    const history = (await t.request({ method: 'GET', url: '/api/imports', token: owner.token })).json();
    expect(history.meta.per_page).toBe(15);
    expect(history.data[0]).toMatchObject({ id: doc.id, name: 'leads.csv', parsed_leads_count: 7, leads_failed: 2 });
    const failed = (
      await t.request({ method: 'GET', url: `/api/import-files/${doc.id}/leads-failed`, token: owner.token })
    ).json();
    expect(failed.meta.total).toBe(2);
    expect(failed.data.map((f: { row_number: number }) => f.row_number)).toEqual([5, 7]);
    expect(failed.data[0].reason).toContain('not a valid phone');
    expect(failed.data[1].lead_values.map((v: { value: string }) => v.value)).toContain('bad-email');
    expect(failed.orderable).toContain('row_number');
    const searched = (
      await t.request({
        method: 'GET',
        url: `/api/import-files/${doc.id}/leads-failed?search=valid%20email`,
        token: owner.token,
      })
    ).json();
    expect(searched.data.map((f: { row_number: number }) => f.row_number)).toEqual([7]);
    // A cell's value is found; the words of the stored JSON are not (they would match every row).
    const search = async (text: string) =>
      (
        await t.request({
          method: 'GET',
          url: `/api/import-files/${doc.id}/leads-failed?search=${encodeURIComponent(text)}`,
          token: owner.token,
        })
      )
        .json()
        .data.map((f: { row_number: number }) => f.row_number);
    expect(await search('bad-em')).toEqual([7]);
    expect(await search('attribute_id')).toEqual([]);
    expect(await search('value')).toEqual([]);
    const sorted = (
      await t.request({
        method: 'GET',
        url: `/api/import-files/${doc.id}/leads-failed?order[0]=row_number,desc`,
        token: owner.token,
      })
    ).json();
    expect(sorted.data[0].row_number).toBe(7);
    // No staging table is left behind (dropped just after the import turns completed).
    await vi.waitFor(
      async () => {
        const staging = await sql<{
          n: number;
        }>`select count(*)::int as n from information_schema.tables where table_name like 'import_rows_%' and table_schema = current_schema()`.execute(
          db(),
        );
        expect(staging.rows[0].n).toBe(0);
      },
      { timeout: AFTERWARDS_MS },
    );

    // The summary read in ranges of rows (as on the embedded database) counts what one read does:
    // the same leads staged again, in file order, read in one, two and five pieces.
    const imported = await sql<{ id: number }>`
      select id from leads where list_id = ${list.id} and id <> ${existing.json().id} order by id`.execute(db());
    await sql.raw('create table import_rows_0_1 (row_no integer primary key, lead_id bigint not null)').execute(db());
    try {
      for (const [i, lead] of imported.rows.entries())
        await sql`insert into import_rows_0_1 values (${i + 1}, ${lead.id})`.execute(db());
      const staging = createImportStaging(db());
      for (const slices of [fixedSlices(2 ** 31 - 1), fixedSlices(3), fixedSlices(1)])
        expect(await staging.summary('import_rows_0_1', slices)).toEqual({ total: 5, duplicates: 2, withoutPhone: 1 });
    } finally {
      await sql.raw('drop table import_rows_0_1').execute(db());
    }
  });
  it('exports every failed row in row order, its values by attribute, to its own team only', async () => {
    const { list } = await sourceWithList(t, owner.token, 'Failures');
    const rows = ['Phone,City,Phone 2'];
    // 2,500 failing rows (more than one batch of the export) between good ones.
    for (let i = 0; i < 5_000; i++) {
      rows.push(
        i % 2 ? `+38066${String(1_000_000 + i)},Kyiv,` : `bad-${i},"Lviv, centre",+38066${String(2_000_000 + i)}`,
      );
    }
    const { upload, result } = await importFile(t, owner.token, list.id, 'failures.csv', csv(rows), {
      Phone: attrs.phone,
      City: 'City',
      'Phone 2': attrs.phone,
    });
    expect(result).toMatchObject({ status: 'completed', leads_failed: 2_500, leads_processed: 2_500 });
    const url = `/api/import-files/${upload.id}/leads-failed/export`;
    const res = await t.request({ method: 'GET', url, token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const city = (await attributeIds(t, owner.token)).city;
    // Two columns mapped to Phone: one attribute, its values joined.
    expect(lines[0]).toEqual({
      attributes: [
        { id: attrs.phone, name: 'Phone' },
        { id: city, name: 'City' },
      ],
    });
    expect(lines).toHaveLength(2_501);
    expect(lines[1]).toEqual({
      row_number: 1,
      reason: '"bad-0" is not a valid phone number',
      reason_message: { code: 'invalid_phone', params: { value: 'bad-0' } },
      values: ['bad-0; +380662000000', 'Lviv, centre'],
    });
    expect(lines.slice(1).map((l) => l.row_number)).toEqual(Array.from({ length: 2_500 }, (_, i) => 2 * i + 1));

    const other = await signupVerified(t);
    expect((await t.request({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
  });

  it('analyzes the lead tables after a large import (the embedded database has no autovacuum)', async () => {
    const { list } = await sourceWithList(t, owner.token, 'Statistics');
    const analyzed = async () =>
      (
        await sql<{ at: Date | null }>`select last_analyze as at from pg_stat_user_tables
          where schemaname = current_schema() and relname = 'leads'`.execute(db())
      ).rows[0]?.at ?? null;
    const before = await analyzed();
    const rows = Array.from({ length: 10_000 }, (_, i) => `+38063${String(1_000_000 + i)}`);
    const { result } = await importFile(t, owner.token, list.id, 'many.csv', csv(['Phone', ...rows]), {
      Phone: attrs.phone,
    });
    expect(result).toMatchObject({ status: 'completed', leads_processed: 10_000 });
    // The analyze follows the completion (best effort, after the import has ended), and PostgreSQL
    // publishes a backend's statistics up to a second later: wait for it rather than race it.
    await vi.waitFor(
      async () => {
        const after = await analyzed();
        expect(after).not.toBeNull();
        if (before) expect(new Date(after as Date).getTime()).toBeGreaterThan(new Date(before).getTime());
      },
      { timeout: AFTERWARDS_MS, interval: 200 },
    );
  });
});
