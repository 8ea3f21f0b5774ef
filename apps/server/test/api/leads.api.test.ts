import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('lead database on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('gives every team the system attributes and manages custom ones', async () => {
    const { token } = await signupVerified(t);
    const list = (await t.request({ method: 'GET', url: '/api/lead-attributes', token })).json().data;
    expect(list.map((a: { slug: string; is_system: boolean }) => [a.slug, a.is_system])).toEqual([
      ['phone', true],
      ['email', true],
    ]);
    const created = await t.request({
      method: 'POST',
      url: '/api/lead-attributes',
      token,
      payload: [
        { name: 'Місто', sort_order: 3 },
        { name: 'First name', sort_order: 2 },
      ],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.map((a: { slug: string }) => a.slug)).toEqual(['misto', 'first_name']);
    const again = await t.request({
      method: 'POST',
      url: '/api/lead-attributes',
      token,
      payload: [{ name: 'first NAME', sort_order: 1 }],
    });
    expect(again.statusCode).toBe(422);
    const phoneId = list[0].id;
    expect((await t.request({ method: 'DELETE', url: `/api/lead-attributes/${phoneId}`, token })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: `/api/lead-attributes/${phoneId}`, token, payload: { name: 'Mobile' } }))
        .statusCode,
    ).toBe(403);
    const city = created.json().data[0].id;
    expect(
      (await t.request({ method: 'PUT', url: `/api/lead-attributes/${city}`, token, payload: { name: 'City' } })).json()
        .name,
    ).toBe('City');
    expect((await t.request({ method: 'DELETE', url: `/api/lead-attributes/${city}`, token })).statusCode).toBe(200);
  });

  it('creates sources and lists with counts, search, sort and paging', async () => {
    const { token } = await signupVerified(t);
    const a = await sourceWithList(t, token, 'Alpha fair');
    await sourceWithList(t, token, 'Beta webinar');
    expect(a.list).toMatchObject({ status: 'active', is_active: true, source_id: a.source.id, total_leads: 0 });
    const page = await t.request({ method: 'GET', url: '/api/sources?order[0]=name,asc&limit=15&page=1', token });
    expect(page.json().data.map((s: { name: string }) => s.name)).toEqual(['Alpha fair', 'Beta webinar']);
    expect(page.json().meta).toMatchObject({ current_page: 1, per_page: 15, total: 2 });
    const search = await t.request({ method: 'GET', url: '/api/sources?search=beta', token });
    expect(search.json().data.map((s: { name: string }) => s.name)).toEqual(['Beta webinar']);
    const lists = await t.request({ method: 'GET', url: `/api/lists?filter[source_id][]=${a.source.id}`, token });
    expect(lists.json().data).toHaveLength(1);
    const off = await t.request({
      method: 'PUT',
      url: `/api/sources/lists/${a.list.id}`,
      token,
      payload: { status: 'inactive' },
    });
    expect(off.json()).toMatchObject({ status: 'inactive', is_active: false });
    const empty = await t.request({ method: 'POST', url: '/api/sources', token, payload: { name: '  ' } });
    expect(empty.statusCode).toBe(422);
  });

  it('adds leads with normalised values, counts duplicates and keeps them right on edit and delete', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    const first = await createLead(t, token, source.id, list.id, [
      [ids.phone, '050 123 45 67'],
      [ids.email, 'Olena@Example.com'],
    ]);
    expect(first.statusCode).toBe(201);
    expect(first.json().lead_values.map((v: { value: string }) => v.value)).toEqual([
      '+380501234567',
      'olena@example.com',
    ]);
    expect(first.json().lead_values[0]).toMatchObject({
      status_label: null,
      carrier_name: null,
      carrier_type: null,
      clicked: null,
      ban: null,
    });
    const second = (await createLead(t, token, source.id, list.id, [[ids.phone, '+380501234567']])).json();
    const third = (await createLead(t, token, source.id, list.id, [[ids.phone, '380671112233']])).json();
    const dup = async (id: number) =>
      (await t.request({ method: 'GET', url: `/api/leads/${id}`, token })).json().duplicates;
    expect([await dup(first.json().id), await dup(second.id), await dup(third.id)]).toEqual([1, 1, 0]);

    const aggregations = (
      await t.request({ method: 'GET', url: `/api/sources/${source.id}/aggregations`, token })
    ).json();
    expect(aggregations).toMatchObject({ total_leads: 3, total_today: 3, total_last_30_days: 3, duplicate: 2 });

    // Editing the second lead's phone to the third's moves the duplicate.
    const secondPhone = second.lead_values[0].id;
    const edited = await t.request({
      method: 'PUT',
      url: `/api/lead-phones/${secondPhone}`,
      token,
      payload: { value: '+380671112233' },
    });
    expect(edited.statusCode).toBe(200);
    expect([await dup(first.json().id), await dup(second.id), await dup(third.id)]).toEqual([0, 1, 1]);
    // The user's own change shows at once despite the 5-minute cache.
    expect(
      (await t.request({ method: 'GET', url: `/api/sources/${source.id}/aggregations`, token })).json().duplicate,
    ).toBe(2);

    expect((await t.request({ method: 'DELETE', url: `/api/leads/${third.id}`, token })).statusCode).toBe(200);
    expect(await dup(second.id)).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/sources/total', token })).json()).toMatchObject({
      total_leads: 2,
      duplicates_today: 0,
    });
  });

  it('refuses bad values with clear errors and stores nothing', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    const other = await sourceWithList(t, token, 'Other');
    const badPhone = await createLead(t, token, source.id, list.id, [[ids.phone, 'call me']]);
    expect(badPhone.statusCode).toBe(422);
    expect(badPhone.json().errors['attributes.0.value'][0]).toEqual({
      code: 'invalid_phone',
      params: { value: 'call me' },
    });
    const badEmail = await createLead(t, token, source.id, list.id, [[ids.email, 'nope@']]);
    expect(badEmail.statusCode).toBe(422);
    const unknownAttr = await createLead(t, token, source.id, list.id, [[999999, 'x']]);
    expect(unknownAttr.json().errors['attributes.0.attr_id']).toBeDefined();
    const wrongList = await createLead(t, token, source.id, other.list.id, [[ids.phone, '+380501112233']]);
    expect(wrongList.statusCode).toBe(422);
    expect(wrongList.json().errors.list_id).toBeDefined();
    const onlyEmpty = await createLead(t, token, source.id, list.id, [[ids.phone, '   ']]);
    expect(onlyEmpty.statusCode).toBe(422);
    const leads = await t.request({ method: 'GET', url: '/api/leads', token });
    expect(leads.json().meta.total).toBe(0);
  });

  it('skips phones matching an ignored format and says so', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    const bad = await t.request({
      method: 'PUT',
      url: '/api/validation-template/phone',
      token,
      payload: { values: '+38067*\nhello' },
    });
    expect(bad.statusCode).toBe(422);
    await t.request({
      method: 'PUT',
      url: '/api/validation-template/phone',
      token,
      payload: { values: '+38067*\n+1 415 XXX XXXX' },
    });
    expect((await t.request({ method: 'GET', url: '/api/validation-template/phone', token })).json().values).toContain(
      '+38067*',
    );
    const res = await createLead(t, token, source.id, list.id, [
      [ids.phone, '+380671234567'],
      [ids.email, 'kept@example.com'],
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().info[0]).toEqual({ code: 'ignored_phone', params: { value: '+380671234567' } });
    expect(res.json().lead_values.map((v: { value: string }) => v.value)).toEqual(['kept@example.com']);
  });

  it('pages, searches and sorts the leads table, with multi-values and a timeline', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    for (let i = 0; i < 7; i++) await createLead(t, token, source.id, list.id, [[ids.phone, `+38050000000${i}`]]);
    const page = await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads?limit=5&page=2`, token });
    expect(page.json().data).toHaveLength(2);
    expect(page.json().meta).toMatchObject({ total: 7, current_page: 2, last_page: 2, total_blacklisted: 0 });
    const found = await t.request({ method: 'GET', url: '/api/leads?search=0000003', token });
    expect(found.json().data).toHaveLength(1);
    expect(found.json().meta.total).toBe(1);
    const leadId = found.json().data[0].id;

    const added = await t.request({
      method: 'POST',
      url: `/api/leads/${leadId}/lead-attributes/${ids.phone}/lead-phones`,
      token,
      payload: { value: '+380509998877' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().lead_values.map((v: { value: string }) => v.value)).toEqual(['+380500000003', '+380509998877']);
    const wrongKind = await t.request({
      method: 'POST',
      url: `/api/leads/${leadId}/lead-attributes/${ids.phone}/lead-emails`,
      token,
      payload: { value: 'a@b.co' },
    });
    expect(wrongKind.statusCode).toBe(422);

    const status = await t.request({
      method: 'PUT',
      url: '/api/leads/batch-status',
      token,
      payload: { ids: [leadId, 99999999], status: 'blacklisted' },
    });
    expect(status.json()).toEqual({
      info: [{ code: 'leads_status_set', params: { count: 1, status: 'blacklisted' } }],
      errors: [{ code: 'leads_not_found', params: { count: 1 } }],
    });
    expect(
      (await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads`, token })).json().meta.total_blacklisted,
    ).toBe(1);

    const log = (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token })).json();
    expect(log.data.map((e: { action: string }) => e.action)).toEqual(['status_changed', 'value_added', 'created']);
    expect(log.data[0].diff_log[0]).toMatchObject({ value_from: 'active', value_to: 'blacklisted' });
    expect(log.meta.per_page).toBe(20);
    expect((await t.request({ method: 'GET', url: `/api/leads/${leadId}/log?limit=7`, token })).statusCode).toBe(422);

    // One lead may take any status; several only a bulk one (spec section 4).
    const severalPending = await t.request({
      method: 'PUT',
      url: '/api/leads/batch-status',
      token,
      payload: { ids: [leadId, 99999999], status: 'pending' },
    });
    expect(severalPending.statusCode).toBe(422);
    expect(severalPending.json().errors.status).toEqual([{ code: 'status_not_bulk' }]);
    const onePending = await t.request({
      method: 'PUT',
      url: '/api/leads/batch-status',
      token,
      payload: { ids: [leadId], status: 'pending' },
    });
    expect(onePending.json().info).toEqual([{ code: 'leads_status_set', params: { count: 1, status: 'pending' } }]);

    const places = (await t.request({ method: 'GET', url: `/api/leads/${leadId}/sources`, token })).json();
    expect(places.lists[0]).toMatchObject({ id: list.id, source_id: source.id });

    const sorted = await t.request({
      method: 'GET',
      url: `/api/lists/${list.id}/leads?order[0]=id,asc&limit=15`,
      token,
    });
    const sortedIds = sorted.json().data.map((l: { id: number }) => l.id);
    expect(sortedIds).toEqual([...sortedIds].sort((a, b) => a - b));
    const batch = await t.request({
      method: 'DELETE',
      url: '/api/leads/batch',
      token,
      payload: { ids: sortedIds.slice(0, 3) },
    });
    expect(batch.json()).toEqual({ deleted: 3 });
  });

  it('shows every change at once on lead pages that are served from the cache', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const city = (
      await t.request({
        method: 'POST',
        url: '/api/lead-attributes',
        token,
        payload: [{ name: 'City', sort_order: 3 }],
      })
    ).json().data[0].id;
    const { source, list } = await sourceWithList(t, token);
    const lead = (
      await createLead(t, token, source.id, list.id, [
        [ids.phone, '+380501112233'],
        [city, 'Lviv'],
      ])
    ).json();
    const pages = [`/api/leads?limit=15`, `/api/lists/${list.id}/leads?limit=15`];
    const first = async () =>
      Promise.all(pages.map(async (url) => (await t.request({ method: 'GET', url, token })).json()));
    const shown = async () => (await first()).map((p) => p.data.find((l: { id: number }) => l.id === lead.id));
    expect((await shown()).map((l) => l.lead_values.map((v: { value: string }) => v.value))).toEqual([
      ['+380501112233', 'Lviv'],
      ['+380501112233', 'Lviv'],
    ]);

    const cityValue = lead.lead_values.find((v: { attribute: { id: number } }) => v.attribute.id === city).id;
    await t.request({ method: 'PUT', url: `/api/lead-values/${cityValue}`, token, payload: { value: 'Odesa' } });
    for (const l of await shown()) expect(l.lead_values[1].value).toBe('Odesa');

    await t.request({ method: 'PUT', url: `/api/lead-attributes/${city}`, token, payload: { name: 'Town' } });
    for (const l of await shown()) expect(l.lead_values[1].attribute.name).toBe('Town');

    await t.request({
      method: 'PUT',
      url: '/api/leads/batch-status',
      token,
      payload: { ids: [lead.id], status: 'flagged' },
    });
    for (const l of await shown()) expect(l.status).toBe('flagged');

    await t.request({ method: 'DELETE', url: `/api/lead-attributes/${city}`, token });
    for (const l of await shown()) expect(l.lead_values).toHaveLength(1);

    const second = (await createLead(t, token, source.id, list.id, [[ids.phone, '+380501112234']])).json();
    for (const p of await first()) expect(p.data[0].id).toBe(second.id);

    await t.request({ method: 'DELETE', url: `/api/leads/${lead.id}`, token });
    for (const p of await first()) expect(p.meta.total).toBe(1);

    await t.request({ method: 'DELETE', url: `/api/sources/lists/${list.id}`, token });
    expect((await t.request({ method: 'GET', url: pages[1], token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: pages[0], token })).json().meta.total).toBe(0);
  });

  it('lets operators add and read leads but not delete them, and tells the team', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    const ids = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token);
    const created = await createLead(t, operator.token, source.id, list.id, [[ids.phone, '+380631234567']]);
    expect(created.statusCode).toBe(201);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/leads/${created.json().id}`, token: operator.token })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/leads/batch-status',
          token: operator.token,
          payload: { ids: [created.json().id], status: 'flagged' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: '/api/sources', token: operator.token, payload: { name: 'x' } }))
        .statusCode,
    ).toBe(403);
    // On PostgreSQL the event comes back through LISTEN/NOTIFY, after the response: wait for it.
    const seen = () =>
      t.app.services.bus
        .since(0)
        .filter(
          (e) =>
            e.event.type === 'TeamOperatorAction' && 'teamId' in e.audience && e.audience.teamId === owner.user.team_id,
        );
    await vi.waitFor(() => expect(seen()).toHaveLength(1), { timeout: 5_000 });
    // …and only once: a second would arrive by now as surely as the first.
    await new Promise((r) => setTimeout(r, 200));
    expect(seen()).toHaveLength(1);
  });

  it('deletes a source with its lists and leads', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    await createLead(t, token, source.id, list.id, [[ids.phone, '+380501110000']]);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/sources/batch?ids[0]=${source.id}`, token })).json(),
    ).toEqual({ deleted: 1 });
    expect((await t.request({ method: 'GET', url: '/api/leads', token })).json().meta.total).toBe(0);
    expect((await t.request({ method: 'GET', url: `/api/sources/lists/${list.id}`, token })).statusCode).toBe(404);
  });
});
