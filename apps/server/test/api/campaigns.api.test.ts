import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const locale = (lang: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../web/src/locales/${lang}/messages.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;
const LOCALES = ['uk', 'en', 'ru'].map(locale);

describe.each(databases)('campaigns: editing, status machine, isolation and roles on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.app.services.database.db;

  /** An owner with one simulator gateway (chosen automatically) and a list with one lead. */
  async function team() {
    const owner = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, { type: 'simulator', name: 'Sim' });
    const { source, list } = await sourceWithList(t, owner.token, `S ${Math.random()}`);
    const ids = await attributeIds(t, owner.token);
    const lead = await createLead(t, owner.token, source.id, list.id, [[ids.phone, '+380501234567']]);
    if (lead.statusCode !== 201) throw new Error(lead.body);
    return { owner, gateway, source, list };
  }

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.request({ method, url: `/api${url}`, token, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** A 4xx whose message code is `code`, translated in every language of the web. */
  function refused(
    res: {
      statusCode: number;
      json(): { detail?: { code: string }; errors?: Record<string, Array<{ code: string }>> };
    },
    status: number,
    code: string,
  ) {
    expect(res.statusCode).toBe(status);
    const body = res.json();
    // A schema's own check names the field; a service's refusal says it in `detail`.
    expect(body.detail?.code ?? Object.values(body.errors ?? {})[0]?.[0]?.code).toBe(code);
    for (const messages of LOCALES) expect(messages[code]).toBeTruthy();
  }

  /** A draft campaign of the team with the list as its audience and one step. */
  async function ready(token: string, listId: number) {
    const c = (await call(token, 'POST', '/campaigns', {})).json();
    expect(
      (await call(token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [listId] })).statusCode,
    ).toBe(200);
    const step = await call(token, 'POST', `/campaigns/${c.id}/campaign-steps`, {
      message: 'Hello',
      delay_minutes: 30,
    });
    expect(step.statusCode).toBe(201);
    return { campaign: c, step: step.json() };
  }

  const setRow = (id: number, values: Record<string, unknown>) =>
    db().updateTable('campaigns').set(values).where('id', '=', id).execute();

  it('creates a draft with the defaults: name, the only gateway, the browser zone, 60 a minute, now + 5 min', async () => {
    const { owner, gateway } = await team();
    const before = Date.now();
    const res = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: owner.token,
      payload: {},
      headers: { 'x-timezone': 'Europe/Kyiv' },
    });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      name: 'Campaign 1',
      status: 'draft',
      gateway_id: gateway.id,
      timezone: 'Europe/Kyiv',
      frequency_per_minute: 60,
      quiet_hours: true,
      quiet_from: '21:00',
      quiet_to: '09:00',
    });
    const start = new Date(c.start_at).getTime();
    expect(start).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1_000);
    expect(start).toBeLessThanOrEqual(before + 10 * 60_000 + 1_000);
    expect(start % (5 * 60_000)).toBe(0);
    expect(c.start_at_local).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d[05]$/);
    const logs = (await call(owner.token, 'GET', `/campaigns/${c.id}/campaign-logs`)).json();
    expect(logs.data.map((l: { type: string }) => l.type)).toEqual(['campaign_created']);
  });

  it('reads a start written in the campaign zone and logs what an update changed', async () => {
    const { owner } = await team();
    const c = (
      await call(owner.token, 'POST', '/campaigns', { timezone: 'Europe/Kyiv', start_at: '2027-01-15 10:00' })
    ).json();
    expect(c.start_at).toBe('2027-01-15T08:00:00.000Z');
    const res = await call(owner.token, 'PUT', `/campaigns/${c.id}`, {
      name: 'Spring sale',
      frequency_per_minute: 1200,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Spring sale', frequency_per_minute: 1200, version: c.version + 1 });
    // A new zone keeps the wall-clock time the form shows.
    const moved = (await call(owner.token, 'PUT', `/campaigns/${c.id}`, { timezone: 'UTC' })).json();
    expect(moved.start_at_local).toBe('2027-01-15 10:00');
    expect(moved.start_at).toBe('2027-01-15T10:00:00.000Z');
    const stale = await call(owner.token, 'PUT', `/campaigns/${c.id}`, { name: 'Old copy', version: c.version });
    refused(stale, 409, 'campaign_version_conflict');
    refused(await call(owner.token, 'PUT', `/campaigns/${c.id}`, { timezone: 'Mars/Base' }), 422, 'timezone_invalid');
    const logs = (await call(owner.token, 'GET', `/campaigns/${c.id}/campaign-logs`)).json().data;
    const updated = logs.find(
      (l: { type: string; data: { attributes?: Array<{ name: string }> } }) =>
        l.type === 'campaign_updated' && l.data.attributes?.some((a) => a.name === 'name'),
    );
    expect(updated.data.attributes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'name', value_to: 'Spring sale' }),
        expect.objectContaining({ name: 'frequency_per_minute', value_from: 60, value_to: 1200 }),
      ]),
    );
    expect(updated.user.name).toBe('Olena Owner');
  });

  it('lists 15 a page with search, status filter, sort and aggregations', async () => {
    const { owner } = await team();
    for (let i = 1; i <= 16; i++)
      await call(owner.token, 'POST', '/campaigns', { name: `Promo ${String(i).padStart(2, '0')}` });
    const first = (await call(owner.token, 'GET', '/campaigns')).json();
    expect(first.data).toHaveLength(15);
    expect(first.meta).toMatchObject({ total: 16, per_page: 15, last_page: 2 });
    const second = (await call(owner.token, 'GET', '/campaigns?page=2')).json();
    expect(second.data).toHaveLength(1);
    const found = (await call(owner.token, 'GET', '/campaigns?search=Promo%2007')).json();
    expect(found.data.map((c: { name: string }) => c.name)).toEqual(['Promo 07']);
    const byName = (await call(owner.token, 'GET', '/campaigns?order[0]=name,asc')).json();
    expect(byName.data[0].name).toBe('Promo 01');
    await setRow(first.data[0].id, { status: 'paused' });
    const agg = (await call(owner.token, 'GET', '/campaigns/aggregations')).json();
    expect(agg.total).toBe(16);
    expect(agg.statuses).toMatchObject({ draft: 15, paused: 1, active: 0 });
    const paused = (await call(owner.token, 'GET', '/campaigns?status=paused')).json();
    expect(paused.data.map((c: { id: number }) => c.id)).toEqual([first.data[0].id]);
  });

  it('checks steps: placeholders, {{link}} with its address, the first step without delay, at most in draft', async () => {
    const { owner, list } = await team();
    const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
    const steps = `/campaigns/${c.id}/campaign-steps`;
    refused(await call(owner.token, 'POST', steps, { message: 'Hi {{nobody}}' }), 422, 'placeholder_unknown');
    refused(await call(owner.token, 'POST', steps, { message: 'Go {{link}}' }), 422, 'sms_redirect_required');
    refused(
      await call(owner.token, 'POST', steps, { message: 'Go', redirect_to: 'https://shop.example/sale' }),
      422,
      'campaign_redirect_unused',
    );
    refused(await call(owner.token, 'POST', steps, { message: '   ' }), 422, 'campaign_message_required');
    const first = await call(owner.token, 'POST', steps, {
      message: 'Sale {{link}} {{unsubscribe}}',
      redirect_to: 'https://shop.example/sale',
      delay_minutes: 90,
      limit_cap: 500,
      send_by_minutes: 120,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      position: 1,
      name: 'Step 1',
      delay_minutes: 0,
      limit_cap: 500,
      status: 'not_sent',
    });
    const second = (await call(owner.token, 'POST', steps, { message: 'Reminder', delay_minutes: 1440 })).json();
    expect(second).toMatchObject({ position: 2, delay_minutes: 1440 });
    // Deleting the first makes the second first: it goes at the start.
    expect((await call(owner.token, 'DELETE', `/campaign-steps/${first.json().id}`)).statusCode).toBe(200);
    expect((await call(owner.token, 'GET', steps)).json()).toEqual([
      expect.objectContaining({ id: second.id, position: 1, delay_minutes: 0 }),
    ]);
    await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
    const logs = (await call(owner.token, 'GET', `/campaigns/${c.id}/campaign-logs`)).json().data;
    expect(logs[0].data).toMatchObject({
      kind: 'list',
      ref_id: list.id,
      attributes: [{ name: 'list', value_to: list.name }],
    });
    const logTypes = logs.map((l: { type: string }) => l.type);
    expect(logTypes).toEqual([
      'campaign_segment_add',
      'campaign_step_deleted',
      'campaign_step_created',
      'campaign_step_created',
      'campaign_created',
    ]);
  });

  it('holds every editing rule on the server, with its message', async () => {
    const { owner, list, source } = await team();
    const { campaign: c, step } = await ready(owner.token, list.id);
    expect((await call(owner.token, 'PUT', `/campaigns/${c.id}/status`, { status: 'scheduled' })).json()).toMatchObject(
      {
        status: 'scheduled',
        launched_by: owner.user.id,
      },
    );
    // Scheduled: settings and a step not sent yet may change; steps and audiences may not.
    expect((await call(owner.token, 'PUT', `/campaigns/${c.id}`, { name: 'Renamed' })).statusCode).toBe(200);
    expect((await call(owner.token, 'PUT', `/campaign-steps/${step.id}`, { message: 'Hello again' })).statusCode).toBe(
      200,
    );
    refused(
      await call(owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { message: 'More' }),
      422,
      'campaign_steps_draft_only',
    );
    refused(await call(owner.token, 'DELETE', `/campaign-steps/${step.id}`), 422, 'campaign_steps_draft_only');
    refused(
      await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'source', ref_ids: [source.id] }),
      422,
      'campaign_audience_draft_only',
    );
    const audience = (await call(owner.token, 'GET', `/campaigns/${c.id}/audiences`)).json()[0];
    expect(audience).toMatchObject({ kind: 'list', ref_id: list.id, name: `${source.name} list` });
    refused(
      await call(owner.token, 'DELETE', `/campaigns/${c.id}/audiences/${audience.id}`),
      422,
      'campaign_audience_draft_only',
    );

    // Paused after it started: a sent step is fixed; the step being sent may change its text, not its cap.
    await setRow(c.id, { status: 'paused', started_at: new Date() });
    await db().updateTable('campaign_steps').set({ status: 'sending' }).where('id', '=', step.id).execute();
    expect((await call(owner.token, 'PUT', `/campaign-steps/${step.id}`, { message: 'Fixed typo' })).statusCode).toBe(
      200,
    );
    refused(
      await call(owner.token, 'PUT', `/campaign-steps/${step.id}`, { limit_cap: 10 }),
      422,
      'campaign_step_not_editable',
    );
    refused(
      await call(owner.token, 'PUT', `/campaigns/${c.id}`, { start_at: '2030-01-01 10:00' }),
      422,
      'campaign_field_fixed',
    );
    expect((await call(owner.token, 'PUT', `/campaigns/${c.id}`, { frequency_per_minute: 30 })).statusCode).toBe(200);
    await db().updateTable('campaign_steps').set({ status: 'sent' }).where('id', '=', step.id).execute();
    refused(
      await call(owner.token, 'PUT', `/campaign-steps/${step.id}`, { message: 'Too late' }),
      422,
      'campaign_step_not_editable',
    );

    // Active, completed, failed: nothing changes, it cannot be deleted while it sends.
    for (const status of ['active', 'completed', 'failed']) {
      await setRow(c.id, { status });
      refused(await call(owner.token, 'PUT', `/campaigns/${c.id}`, { name: 'No' }), 422, 'campaign_not_editable');
    }
    await setRow(c.id, { status: 'active' });
    refused(await call(owner.token, 'DELETE', `/campaigns/${c.id}`), 409, 'campaign_not_deletable');
    const batch = (await call(owner.token, 'DELETE', '/campaigns/batch', { ids: [c.id] })).json();
    expect(batch).toMatchObject({ done: 0, refused: [{ id: c.id, reason: { code: 'campaign_not_deletable' } }] });
    const row = await db().selectFrom('campaigns').select(['name', 'status']).where('id', '=', c.id).executeTakeFirst();
    expect(row).toEqual({ name: 'Renamed', status: 'active' });
    const text = await db().selectFrom('campaign_steps').select('message').where('id', '=', step.id).executeTakeFirst();
    expect(text?.message).toBe('Fixed typo');
  });

  it('moves statuses only as the table allows, one by one and in a batch', async () => {
    const { owner, list } = await team();
    const { campaign: a } = await ready(owner.token, list.id);
    const { campaign: b } = await ready(owner.token, list.id);
    const status = (id: number, to: string) => call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: to });
    refused(await status(a.id, 'paused'), 422, 'campaign_status_not_allowed');
    refused(await status(a.id, 'draft'), 422, 'campaign_status_not_allowed');
    refused(await status(a.id, 'completed'), 422, 'campaign_status_not_allowed');
    expect((await status(a.id, 'scheduled')).statusCode).toBe(200);
    expect((await status(a.id, 'paused')).statusCode).toBe(200);
    expect((await status(a.id, 'scheduled')).json().status).toBe('scheduled');
    expect((await status(a.id, 'draft')).json()).toMatchObject({ status: 'draft', launched_by: null });
    // A campaign that started never goes back to draft; from rejected only draft.
    await setRow(a.id, { status: 'paused', started_at: new Date() });
    refused(await status(a.id, 'draft'), 422, 'campaign_status_not_allowed');
    await setRow(b.id, { status: 'rejected' });
    refused(await status(b.id, 'scheduled'), 422, 'campaign_status_not_allowed');
    expect((await status(b.id, 'draft')).statusCode).toBe(200);

    const batch = (
      await call(owner.token, 'PUT', '/campaigns/batch-status', { ids: [a.id, b.id], status: 'scheduled' })
    ).json();
    expect(batch.done).toBe(2);
    const again = (
      await call(owner.token, 'PUT', '/campaigns/batch-status', { ids: [a.id, b.id], status: 'draft' })
    ).json();
    // a started: refused; b had not: back to draft.
    expect(again).toMatchObject({ done: 1, refused: [{ id: a.id, reason: { code: 'campaign_status_not_allowed' } }] });
    const logs = (await call(owner.token, 'GET', `/campaigns/${b.id}/campaign-logs`)).json().data;
    expect(logs[0]).toMatchObject({ type: 'campaign_status_changed', data: { from: 'scheduled', to: 'draft' } });
  });

  it('refuses to schedule what cannot start', async () => {
    const { owner, list } = await team();
    const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
    const schedule = () => call(owner.token, 'PUT', `/campaigns/${c.id}/status`, { status: 'scheduled' });
    refused(await schedule(), 422, 'campaign_audience_required');
    await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
    refused(await schedule(), 422, 'campaign_steps_required');
    await call(owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { message: 'Hello' });
    await setRow(c.id, { gateway_id: null });
    refused(await schedule(), 422, 'campaign_gateway_required');
    await call(owner.token, 'PUT', `/campaigns/${c.id}`, { gateway_id: c.gateway_id });
    // An owner's team without a plan is asked to activate one.
    await sql`delete from subscriptions where team_id = ${owner.user.team_id}`.execute(db());
    const noPlan = await schedule();
    expect(noPlan.statusCode).toBe(422);
    expect(noPlan.json().code).toBe('subscription_required');
    expect(
      (await db().selectFrom('campaigns').select('status').where('id', '=', c.id).executeTakeFirst())?.status,
    ).toBe('draft');
  });

  it('duplicates with steps and audiences as a draft, and deletes', async () => {
    const { owner, list } = await team();
    const { campaign: c } = await ready(owner.token, list.id);
    await call(owner.token, 'PUT', `/campaigns/${c.id}/status`, { status: 'scheduled' });
    const copy = await call(owner.token, 'POST', `/campaigns/${c.id}/duplicate`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({
      status: 'draft',
      name: `${c.name} (copy)`,
      steps_count: 1,
      audiences_count: 1,
    });
    expect((await call(owner.token, 'DELETE', `/campaigns/${copy.json().id}`)).json().code).toBe('campaign_deleted');
    expect((await call(owner.token, 'GET', `/campaigns/${copy.json().id}`)).statusCode).toBe(404);
    const batch = (await call(owner.token, 'DELETE', '/campaigns/batch', { ids: [c.id] })).json();
    expect(batch.done).toBe(1);
  });

  it("answers 404 for another team's campaign, step, audience and gateway, and changes nothing", async () => {
    const a = await team();
    const b = await team();
    const { campaign: c, step } = await ready(a.owner.token, a.list.id);
    const tok = b.owner.token;
    refused(await call(tok, 'GET', `/campaigns/${c.id}`), 404, 'campaign_not_found');
    refused(await call(tok, 'PUT', `/campaigns/${c.id}`, { name: 'Stolen' }), 404, 'campaign_not_found');
    refused(await call(tok, 'PUT', `/campaigns/${c.id}/status`, { status: 'scheduled' }), 404, 'campaign_not_found');
    refused(await call(tok, 'DELETE', `/campaigns/${c.id}`), 404, 'campaign_not_found');
    refused(await call(tok, 'POST', `/campaigns/${c.id}/duplicate`), 404, 'campaign_not_found');
    refused(await call(tok, 'GET', `/campaigns/${c.id}/preview`), 404, 'campaign_not_found');
    refused(await call(tok, 'GET', `/campaigns/${c.id}/campaign-logs`), 404, 'campaign_not_found');
    refused(await call(tok, 'GET', `/campaigns/${c.id}/campaign-steps`), 404, 'campaign_not_found');
    refused(
      await call(tok, 'PUT', `/campaign-steps/${step.id}`, { message: 'Stolen' }),
      404,
      'campaign_step_not_found',
    );
    refused(await call(tok, 'DELETE', `/campaign-steps/${step.id}`), 404, 'campaign_step_not_found');
    const audience = (await call(a.owner.token, 'GET', `/campaigns/${c.id}/audiences`)).json()[0];
    refused(await call(tok, 'DELETE', `/campaigns/${c.id}/audiences/${audience.id}`), 404, 'campaign_not_found');
    // b's own campaign cannot take a's list or a's gateway.
    const own = (await call(tok, 'POST', '/campaigns', {})).json();
    refused(
      await call(tok, 'POST', `/campaigns/${own.id}/audiences`, { kind: 'list', ref_ids: [a.list.id] }),
      404,
      'list_not_found',
    );
    expect((await call(tok, 'PUT', `/campaigns/${own.id}`, { gateway_id: a.gateway.id })).statusCode).toBe(404);
    expect((await call(tok, 'POST', '/campaigns', { gateway_id: a.gateway.id })).statusCode).toBe(404);
    const batch = (await call(tok, 'DELETE', '/campaigns/batch', { ids: [c.id] })).json();
    expect(batch.done).toBe(0);
    const statuses = (await call(tok, 'PUT', '/campaigns/batch-status', { ids: [c.id], status: 'scheduled' })).json();
    expect(statuses).toMatchObject({ done: 0, refused: [{ id: c.id, reason: { code: 'campaign_not_found' } }] });
    const mine = (await call(a.owner.token, 'GET', `/campaigns/${c.id}`)).json();
    expect(mine).toMatchObject({
      name: c.name,
      status: 'draft',
      version: c.version,
      audiences_count: 1,
      steps_count: 1,
    });
    expect((await call(a.owner.token, 'GET', `/campaigns/${c.id}/campaign-steps`)).json()[0].message).toBe('Hello');
    expect((await call(tok, 'GET', '/campaigns')).json().meta.total).toBe(1);
  });

  it('shows campaigns to owners and admins, not to operators', async () => {
    const { owner } = await team();
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    const c = (await call(admin.token, 'POST', '/campaigns', {})).json();
    expect((await call(owner.token, 'GET', `/campaigns/${c.id}`)).statusCode).toBe(200);
    expect((await call(operator.token, 'GET', '/campaigns')).statusCode).toBe(403);
    expect((await call(operator.token, 'GET', `/campaigns/${c.id}`)).statusCode).toBe(403);
    expect((await call(operator.token, 'POST', '/campaigns', {})).statusCode).toBe(403);
    expect((await call(operator.token, 'DELETE', `/campaigns/${c.id}`)).statusCode).toBe(403);
    expect((await call(owner.token, 'GET', '/campaigns')).json().meta.total).toBe(1);
  });

  it('offers the campaign statuses in config/general', async () => {
    const { owner } = await team();
    const config = (await call(owner.token, 'GET', '/config/general')).json();
    expect(config.campaign_status_list.map((s: { key: string }) => s.key)).toEqual([
      'draft',
      'scheduled',
      'processing',
      'active',
      'paused',
      'completed',
      'failed',
      'rejected',
    ]);
    expect(config.campaign_manual_status_list.map((s: { key: string }) => s.key)).toEqual([
      'draft',
      'scheduled',
      'paused',
    ]);
    expect(config.timezones_js).toContain('Europe/Kyiv');
  });
});
