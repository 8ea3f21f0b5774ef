import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { importFile } from '../fixtures/imports/import-client.ts';

describe.each(databases)('audiences on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let attrs: Record<string, number>;
  let expo: { source: { id: number }; list: { id: number } };
  let fair: { source: { id: number }; list: { id: number } };
  const lead: Record<string, number> = {};

  const call = (method: string, url: string, payload?: unknown, as = token) =>
    t.request({
      method: method as 'GET',
      url,
      token: as,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const count = async (id: number) =>
    (await call('GET', `/api/segments/${id}/leads-count`)).json().leads_count as number;
  const leadIds = async (id: number, query = '') =>
    ((await call('GET', `/api/segments/${id}/leads?limit=100${query}`)).json().data as Array<{ id: number }>)
      .map((l) => l.id)
      .sort((a, b) => a - b);
  const add = async (name: string, where: typeof expo, values: Array<[string, string]>) => {
    const res = await createLead(
      t,
      token,
      where.source.id,
      where.list.id,
      values.map(([slug, value]) => [attrs[slug], value]),
    );
    expect(res.statusCode, res.body).toBe(201);
    lead[name] = res.json().id;
    return lead[name];
  };

  /** Polls the active exports until this one is no longer pending. */
  const exportEnded = async (id: number) => {
    for (let i = 0; i < 120; i++) {
      const active = (await call('GET', '/api/exports/active')).json().data as Array<{
        id: number;
        type: string;
        url: string;
        rows: number;
      }>;
      const mine = active.find((e) => e.id === id);
      if (mine && mine.type !== 'export-pending') return mine;
      await new Promise((r) => setTimeout(r, 250));
    }
    return undefined;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    token = (await signupVerified(t)).token;
    await call('POST', '/api/lead-attributes', [{ name: 'City', sort_order: 5 }]);
    attrs = await attributeIds(t, token);
    expo = await sourceWithList(t, token, 'Expo');
    fair = await sourceWithList(t, token, 'Fair');
    await add('kyiv', expo, [
      ['phone', '+380501111111'],
      ['city', 'Київ'],
    ]);
    await add('lviv', expo, [
      ['phone', '+380502222222'],
      ['city', 'Львів'],
      ['city', '=HYPERLINK("x")'],
    ]);
    await add('none', expo, [['phone', '+380503333333']]);
    await add('fair', fair, [
      ['phone', '+380501111111'],
      ['city', 'Київ'],
      ['email', 'f@example.com'],
    ]);
  });
  afterAll(() => t?.close());

  it('creates an audience, lists, reads, renames and counts it', async () => {
    const created = await call('POST', '/api/segments', {
      name: 'Kyiv people',
      ignore_new_leads: false,
      filters: [{ id: attrs.city, operator: 'contains', values: ['КИЇВ'] }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const audience = created.json();
    expect(audience).toMatchObject({ name: 'Kyiv people', ignore_new_leads: false, parent: null, leads_count: 2 });
    expect(audience.filters).toEqual([{ id: attrs.city, operator: 'contains', values: ['КИЇВ'] }]);

    const list = (await call('GET', '/api/segments?search=kyiv')).json();
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: audience.id, leads_count: 2, segments_count: 0 });
    expect((await call('GET', `/api/segments/${audience.id}`)).json().name).toBe('Kyiv people');
    expect(await leadIds(audience.id)).toEqual([lead.kyiv, lead.fair]);
    expect(await leadIds(audience.id, '&search=f@example')).toEqual([lead.fair]);
    const page = (await call('GET', `/api/segments/${audience.id}/leads?limit=50&order[0]=id,asc`)).json();
    // The shape of every lead table.
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 50, total: 2, total_blacklisted: 0 });
    expect(page.data[0].lead_values.map((v: { value: string }) => v.value)).toEqual(['+380501111111', 'Київ']);

    const renamed = await call('PUT', `/api/segments/${audience.id}`, { name: 'Kyiv' });
    expect(renamed.json().name).toBe('Kyiv');
    expect((await call('GET', `/api/segments/${audience.id}/aggregations`)).json()).toEqual({
      leads_count: 2,
      duplicates_count: 2,
      segments_count: 0,
    });
  });

  it('rejects invalid conditions and rules with 422, unknown ids with 404', async () => {
    const bad = [
      [{ id: attrs.city, values: ['x'] }],
      [{ id: attrs.city, operator: 'contains', values: [] }],
      [{ id: 'list', operator: 'eq', values: [expo.list.id] }],
      [
        { id: 'list', operator: 'eq', values: [999_999] },
        { id: 'source', operator: 'eq', values: [expo.source.id] },
      ],
      [{ id: 'status', operator: 'contains', values: ['active'] }],
      [{ id: 999_999, operator: 'empty' }],
      [{ id: 'source', operator: 'eq', values: [999_999] }],
    ];
    for (const filters of bad) {
      const res = await call('POST', '/api/segments', { name: 'Bad', ignore_new_leads: false, filters });
      expect([JSON.stringify(filters), res.statusCode]).toEqual([JSON.stringify(filters), 422]);
    }
    expect((await call('POST', '/api/segments', { name: ' ', ignore_new_leads: false })).statusCode).toBe(422);
    expect((await call('GET', '/api/segments/999999')).statusCode).toBe(404);
    expect((await call('GET', '/api/segments/999999/leads')).statusCode).toBe(404);
    expect((await call('DELETE', '/api/segments/999999')).statusCode).toBe(404);
  });

  it('syncs sources, lists and conditions', async () => {
    const id = (await call('POST', '/api/segments', { name: 'Sync', ignore_new_leads: false })).json().id;
    expect(await count(id)).toBe(4);
    let s = (await call('POST', `/api/segments/${id}/sources/sync`, { sources: [expo.source.id] })).json();
    expect(s.filters).toEqual([{ id: 'source', operator: 'eq', values: [String(expo.source.id)] }]);
    expect(await count(id)).toBe(3);
    s = (await call('POST', `/api/segments/${id}/lists/sync`, { lists: [expo.list.id] })).json();
    expect(s.filters.map((f: { id: string }) => f.id)).toEqual(['source', 'list']);
    s = (
      await call('POST', `/api/segments/${id}/conditions/sync`, {
        conditions: [{ id: attrs.city, operator: 'not_contains', values: ['київ'] }],
        empties: [{ id: attrs.email, operator: 'empty' }],
      })
    ).json();
    expect(s.filters).toHaveLength(4);
    expect(await leadIds(id)).toEqual([lead.lviv, lead.none]);
    // Presence tests only among the empties; sources and lists only through their own calls.
    expect(
      (
        await call('POST', `/api/segments/${id}/conditions/sync`, {
          empties: [{ id: attrs.city, operator: 'eq', values: ['a'] }],
        })
      ).statusCode,
    ).toBe(422);
    // Removing the sources removes the list filter that depends on them.
    s = (await call('POST', `/api/segments/${id}/sources/sync`, { sources: [] })).json();
    expect(s.filters.map((f: { id: unknown }) => f.id)).toEqual([attrs.city, attrs.email]);
    expect(await count(id)).toBe(2);
    s = (
      await call('POST', `/api/segments/${id}/filters`, {
        filters: [{ id: 'status', operator: 'eq', values: ['active'] }],
      })
    ).json();
    expect(s.filters).toEqual([{ id: 'status', operator: 'eq', values: ['active'] }]);
    expect(await count(id)).toBe(4);
  });

  it('children narrow their parent, down three levels; source filters stay with the audience', async () => {
    const root = (
      await call('POST', '/api/segments', {
        name: 'Expo',
        ignore_new_leads: false,
        filters: [{ id: 'source', operator: 'eq', values: [expo.source.id] }],
      })
    ).json();
    const child = await call('POST', `/api/segments/${root.id}/segments`, {
      name: 'Expo with city',
      ignore_new_leads: false,
      filters: [{ id: attrs.city, operator: 'not_empty' }],
    });
    expect(child.statusCode, child.body).toBe(201);
    expect(child.json()).toMatchObject({
      parent_segment_id: root.id,
      parent: { id: root.id, name: 'Expo' },
      leads_count: 2,
    });
    const grandchild = (
      await call('POST', `/api/segments/${child.json().id}/segments`, {
        name: 'Lviv',
        ignore_new_leads: false,
        filters: [{ id: attrs.city, operator: 'contains', values: ['львів'] }],
      })
    ).json();
    expect(await leadIds(grandchild.id)).toEqual([lead.lviv]);
    // A child with no conditions has exactly its parent's leads.
    const plain = (
      await call('POST', `/api/segments/${root.id}/segments`, { name: 'All', ignore_new_leads: false })
    ).json();
    expect(await leadIds(plain.id)).toEqual([lead.kyiv, lead.lviv, lead.none]);
    expect(
      (
        await call('POST', `/api/segments/${root.id}/segments`, {
          name: 'Fair',
          ignore_new_leads: false,
          filters: [{ id: 'source', operator: 'eq', values: [fair.source.id] }],
        })
      ).statusCode,
    ).toBe(422);
    const children = (await call('GET', `/api/segments/${root.id}/segments`)).json();
    expect(children.meta).toMatchObject({ per_page: 15, total: 2 });
    expect((await call('GET', `/api/segments/${root.id}`)).json().segments_count).toBe(2);
    // Root list shows audiences only.
    const roots = (await call('GET', '/api/segments?limit=100')).json().data.map((s: { id: number }) => s.id);
    expect(roots).toContain(root.id);
    expect(roots).not.toContain(child.json().id);
    // Narrowing the audience narrows every descendant at once (cached counts follow).
    await call('POST', `/api/segments/${root.id}/filters`, {
      filters: [
        { id: 'source', operator: 'eq', values: [expo.source.id] },
        { id: attrs.city, operator: 'contains', values: ['київ'] },
      ],
    });
    expect(await count(grandchild.id)).toBe(0);
    expect(await count(plain.id)).toBe(1);
    // Deleting the audience deletes its segments.
    expect((await call('DELETE', `/api/segments/${root.id}`)).json()).toEqual({ deleted: 1 });
    expect((await call('GET', `/api/segments/${grandchild.id}`)).statusCode).toBe(404);
  });

  it('a dynamic audience follows the data; a frozen one keeps the leads of its last save', async () => {
    const filters = [{ id: attrs.city, operator: 'eq', values: ['Одеса'] }];
    const dynamic = (
      await call('POST', '/api/segments', { name: 'Odesa live', ignore_new_leads: false, filters })
    ).json();
    const frozen = (
      await call('POST', '/api/segments', { name: 'Odesa frozen', ignore_new_leads: true, filters })
    ).json();
    await add('odesa1', expo, [
      ['phone', '+380504444444'],
      ['city', 'Одеса'],
    ]);
    expect(frozen.leads_count).toBe(0);
    expect(await count(dynamic.id)).toBe(1);
    expect(await count(frozen.id)).toBe(0);

    // Saving the conditions takes the members again.
    await call('POST', `/api/segments/${frozen.id}/filters`, { filters });
    expect(await leadIds(frozen.id)).toEqual([lead.odesa1]);
    await add('odesa2', fair, [
      ['phone', '+380505555555'],
      ['city', 'одеса'],
    ]);
    expect(await count(dynamic.id)).toBe(2);
    expect(await leadIds(frozen.id)).toEqual([lead.odesa1]);
    // A member that no longer matches stays; a deleted member leaves.
    const value = (await call('GET', `/api/leads/${lead.odesa1}`))
      .json()
      .lead_values.find((v: { value: string }) => v.value === 'Одеса');
    await call('PUT', `/api/lead-values/${value.id}`, { value: 'Kharkiv' });
    expect(await count(dynamic.id)).toBe(1);
    expect(await count(frozen.id)).toBe(1);
    // A duplicate of a frozen audience keeps its very members.
    const copy = (await call('POST', `/api/segments/${frozen.id}/clone`, {})).json();
    expect(copy).toMatchObject({ name: 'Odesa frozen (copy)', ignore_new_leads: true, leads_count: 1 });
    expect((await call('DELETE', `/api/leads/${lead.odesa1}`)).statusCode).toBe(200);
    expect(await count(frozen.id)).toBe(0);
    expect(await count(copy.id)).toBe(0);

    // Turning 'Update dynamically' on follows the data again; off takes the members now.
    expect((await call('PUT', `/api/segments/${frozen.id}`, { ignore_new_leads: false })).json().leads_count).toBe(1);
    expect((await call('PUT', `/api/segments/${frozen.id}`, { ignore_new_leads: true })).json().leads_count).toBe(1);
    await add('odesa3', expo, [
      ['phone', '+380506666666'],
      ['city', 'Odesa'],
      ['city', 'Одеса'],
    ]);
    expect(await count(frozen.id)).toBe(1);
    expect(await count(dynamic.id)).toBe(2);

    // A dynamic child of a frozen audience narrows the frozen members.
    const child = (
      await call('POST', `/api/segments/${frozen.id}/segments`, {
        name: 'Fair part',
        ignore_new_leads: false,
        filters: [{ id: attrs.phone, operator: 'contains', values: ['5555'] }],
      })
    ).json();
    expect(await leadIds(child.id)).toEqual([lead.odesa2]);
  });

  it("lists a lead's audiences and segments: dynamic by conditions, frozen by members, down the chain", async () => {
    const made = async (url: string, body: object) => (await call('POST', url, body)).json() as { id: number };
    const expoAll = await made('/api/segments', {
      name: 'Lead chips: Expo',
      ignore_new_leads: false,
      filters: [{ id: 'source', operator: 'eq', values: [expo.source.id] }],
    });
    const withCity = await made(`/api/segments/${expoAll.id}/segments`, {
      name: 'Lead chips: with city',
      ignore_new_leads: false,
      filters: [{ id: attrs.city, operator: 'not_empty' }],
    });
    const lviv = await made(`/api/segments/${withCity.id}/segments`, {
      name: 'Lead chips: Lviv',
      ignore_new_leads: false,
      filters: [{ id: attrs.city, operator: 'contains', values: ['львів'] }],
    });
    const frozenKyiv = await made('/api/segments', {
      name: 'Lead chips: frozen Kyiv',
      ignore_new_leads: true,
      filters: [{ id: attrs.city, operator: 'eq', values: ['Київ'] }],
    });
    const chips = async (leadId: number, as = token) => {
      const res = await call('GET', `/api/leads/${leadId}/segments`, undefined, as);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Array<{ id: number; name: string; parent_segment_id: number | null }>;
    };
    const ids = async (leadId: number) => (await chips(leadId)).map((s) => s.id);

    const ofLviv = await chips(lead.lviv);
    expect(ofLviv).toContainEqual({ id: lviv.id, name: 'Lead chips: Lviv', parent_segment_id: withCity.id });
    expect(ofLviv).toContainEqual({ id: expoAll.id, name: 'Lead chips: Expo', parent_segment_id: null });
    expect(ofLviv.map((s) => s.id)).toContain(withCity.id);
    expect(ofLviv.map((s) => s.id)).not.toContain(frozenKyiv.id);
    const ofKyiv = await ids(lead.kyiv);
    expect(ofKyiv).toEqual(expect.arrayContaining([expoAll.id, withCity.id, frozenKyiv.id]));
    expect(ofKyiv).not.toContain(lviv.id);
    // The fair lead is outside the Expo chain; its child segments cannot hold it either.
    const ofFair = await ids(lead.fair);
    expect(ofFair).toContain(frozenKyiv.id);
    expect(ofFair).not.toContain(expoAll.id);
    expect(ofFair).not.toContain(withCity.id);

    // A frozen audience keeps a member that no longer matches; a dynamic one lets it go.
    const city = (await call('GET', `/api/leads/${lead.kyiv}`))
      .json()
      .lead_values.find((v: { value: string }) => v.value === 'Київ');
    await call('PUT', `/api/lead-values/${city.id}`, { value: 'Львів' });
    const after = await ids(lead.kyiv);
    expect(after).toContain(frozenKyiv.id);
    expect(after).toContain(lviv.id);
    await call('PUT', `/api/lead-values/${city.id}`, { value: 'Київ' });

    // Unknown leads and other teams' leads are not found; operators have no audiences.
    expect((await call('GET', '/api/leads/999999999/segments')).statusCode).toBe(404);
    const other = await signupVerified(t);
    expect((await call('GET', `/api/leads/${lead.kyiv}/segments`, undefined, other.token)).statusCode).toBe(404);
    const operator = await addMember(t, token, 'team_operator');
    expect((await call('GET', `/api/leads/${lead.kyiv}/segments`, undefined, operator.token)).statusCode).toBe(403);
    await call('DELETE', `/api/segments/batch?ids[0]=${expoAll.id}&ids[1]=${frozenKyiv.id}`);
    expect(await ids(lead.kyiv)).not.toContain(expoAll.id);
  });

  it('duplicates, batch-deletes, and keeps operators out', async () => {
    const a = (await call('POST', '/api/segments', { name: 'One', ignore_new_leads: false })).json();
    const copy = await call('POST', `/api/segments/${a.id}/clone`, { name: 'Two' });
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({ name: 'Two', parent: null });
    const other = await signupVerified(t);
    // Another team's ids are not found and not deleted.
    expect((await call('DELETE', `/api/segments/batch?ids[0]=${a.id}`, undefined, other.token)).json()).toEqual({
      deleted: 0,
    });
    expect((await call('GET', `/api/segments/${a.id}`, undefined, other.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/segments', undefined, other.token)).json().meta.total).toBe(0);
    const res = await call('DELETE', `/api/segments/batch?ids[0]=${a.id}&ids[1]=${copy.json().id}`);
    expect(res.json()).toEqual({ deleted: 2 });
    expect((await call('GET', `/api/segments/${a.id}`)).statusCode).toBe(404);

    const operator = await addMember(t, token, 'team_operator');
    expect((await call('GET', '/api/segments', undefined, operator.token)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/segments', { name: 'X', ignore_new_leads: false }, operator.token)).statusCode,
    ).toBe(403);
  });

  it('exports a segment to CSV: BOM, chosen columns, joined values, formulas neutralised, team-only download', async () => {
    const audience = (
      await call('POST', '/api/segments', {
        name: 'Export me',
        ignore_new_leads: false,
        filters: [{ id: 'source', operator: 'eq', values: [expo.source.id] }],
      })
    ).json();
    expect((await call('POST', `/api/segments/${audience.id}/leads/csv`, { attributes: [] })).statusCode).toBe(422);
    const started = await call('POST', `/api/segments/${audience.id}/leads/csv`, {
      name: 'Expo leads',
      attributes: [attrs.phone, attrs.city],
      order: 'id,asc',
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ type: 'export-pending', url: null });
    const id = started.json().id;
    const done = await exportEnded(id);
    expect(done?.type).toBe('export-completed');
    expect(done?.url).toBe(`/api/exports/${id}/download`);

    const other = await signupVerified(t);
    expect((await t.request({ method: 'GET', url: `${done?.url}`, token: other.token })).statusCode).toBe(404);
    const file = await t.request({ method: 'GET', url: `${done?.url}`, token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toContain('Expo leads.csv');
    const bytes = file.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    // Header and statuses in the requester's language (none named: Ukrainian, the app's default).
    expect(lines.slice(0, 5)).toEqual([
      'Телефон,City,Статус',
      '+380501111111,Київ,Активний',
      // Every value of an attribute in one cell; a value that would be a formula starts with '.
      `+380502222222,"Львів; =HYPERLINK(""x"")",Активний`,
      '+380503333333,,Активний',
      expect.stringMatching(/^\+380504444444|^\+380506666666/),
    ]);
    // Only validated phones may start a cell with +; nothing else that could run as a formula.
    expect(lines.every((l) => !/(^|,)([=@-]|\+(?!380\d{9}(,|$)))/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('');
    expect(done?.rows).toBe(lines.length - 2);
    // The export was a process the header popover shows, titled in the requester's language (this
    // request named none: Ukrainian, the app's default).
    const processes = (await call('GET', '/api/processes')).json();
    expect(JSON.stringify(processes)).toContain('Експорт Expo leads');
  });

  it('an exported CSV imports back as it was: the apostrophe that guarded a formula is dropped', async () => {
    const audience = (
      await call('POST', '/api/segments', {
        name: 'Round trip',
        ignore_new_leads: false,
        filters: [{ id: 'source', operator: 'eq', values: [expo.source.id] }],
      })
    ).json();
    const started = await call('POST', `/api/segments/${audience.id}/leads/csv`, {
      name: 'Round trip',
      attributes: [attrs.phone, attrs.city],
    });
    expect(started.statusCode, started.body).toBe(202);
    const done = await exportEnded(started.json().id);
    expect(done?.type).toBe('export-completed');
    const exported = (await t.request({ method: 'GET', url: `${done?.url}`, token })).rawPayload;
    // Validated phones are written as they are (they cannot run as formulas), so nothing to strip.
    expect(exported.toString('utf8')).toContain('\r\n+380501111111,');
    expect(exported.toString('utf8')).not.toContain("'+380");

    const back = await sourceWithList(t, token, 'Back');
    // Phone is proposed from its samples (+380…, not '+380…), City by its name.
    const { upload, result } = await importFile(t, token, back.list.id, 'Round trip.csv', exported);
    expect(upload.attributes.map((c) => c.lead_attribute_id)).toEqual([attrs.phone, attrs.city, null]);
    const rows = exported.toString('utf8').split('\r\n').length - 2;
    expect(result).toMatchObject({
      status: 'completed',
      leads_processed: rows,
      leads_failed: 0,
      invalid_format_phones_count: 0,
    });
    const leads = (await call('GET', `/api/lists/${back.list.id}/leads?limit=100`)).json().data as Array<{
      lead_values: Array<{ attribute: { id: number }; value: string }>;
    }>;
    const values = leads.flatMap((l) => l.lead_values.map((v) => v.value));
    // The several values of a cell stay one value (they were joined for the spreadsheet).
    expect(values).toEqual(
      expect.arrayContaining(['+380501111111', '+380502222222', '+380503333333', 'Київ', 'Львів; =HYPERLINK("x")']),
    );
    expect(values.some((v) => v.startsWith("'"))).toBe(false);
  });
  it("exports XLSX with text cells in the requester's language, and it imports back with phones intact", async () => {
    const audience = (
      await call('POST', '/api/segments', {
        name: 'Spreadsheet',
        ignore_new_leads: false,
        filters: [{ id: 'source', operator: 'eq', values: [expo.source.id] }],
      })
    ).json();
    const started = await t.request({
      method: 'POST',
      url: `/api/segments/${audience.id}/leads/xlsx`,
      token,
      headers: { 'accept-language': 'en' },
      payload: { name: 'Spreadsheet', attributes: [attrs.phone, attrs.city], order: 'id,asc' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const done = await exportEnded(started.json().id);
    expect(done?.type).toBe('export-completed');
    const file = await t.request({ method: 'GET', url: `${done?.url}`, token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain('Spreadsheet.xlsx');

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Phone', 'City', 'Status']);
    expect(rows[1]).toEqual(['+380501111111', 'Київ', 'Active']);
    // Text cells: a phone is not a number, a formula-like value is not a formula.
    expect(sheet.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(rows[2]).toEqual(['+380502222222', 'Львів; =HYPERLINK("x")', 'Active']);
    expect(sheet.getRow(3).getCell(2).type).toBe(ExcelJS.ValueType.String);

    const back = await sourceWithList(t, token, 'Back from XLSX');
    const { result } = await importFile(t, token, back.list.id, 'Spreadsheet.xlsx', file.rawPayload);
    expect(result).toMatchObject({ status: 'completed', leads_processed: rows.length - 1, leads_failed: 0 });
    const leads = (await call('GET', `/api/lists/${back.list.id}/leads?limit=100`)).json().data as Array<{
      lead_values: Array<{ value: string }>;
    }>;
    const values = leads.flatMap((l) => l.lead_values.map((v) => v.value));
    expect(values).toEqual(expect.arrayContaining(['+380501111111', '+380502222222', '+380503333333']));
  });
});
