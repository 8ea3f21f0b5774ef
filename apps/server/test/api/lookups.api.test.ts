import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { type FakeLookup, lookupGatewayBody, startFakeLookup } from '../support/fake-providers/fake-lookup.ts';
import { createGateway } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Lookups (decision 040) through the API on both databases, against a fake Twilio Lookup v2: the
 * moves and their rules, a bulk run, one charge per phone at the price list's rate (UAH 0.40),
 * the balance running out and a top-up resuming, fresh results reused free, provider failures
 * refunded and retried, isolation between teams and the roles.
 */
describe.each(databases)('lookups on %s', (kind) => {
  let t: TestApp;
  let fake: FakeLookup;
  beforeAll(async () => {
    fake = await startFakeLookup();
    t = await startTestApp(
      kind,
      {},
      { lookupsEngine: { tickMs: 50, retryMs: 50, batch: 5, lanes: 2, rateLimit: false } },
    );
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  const db = () => t.app.services.database.db;
  const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url: `/api${url}`, token, ...(payload ? { payload } : {}) });
  let seq = 0;

  /** A team with a lookup gateway on the fake, `topUp` of money, and a list of these phones. */
  async function team(phones: string[], topUp: string | null = '50.00') {
    const owner = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, lookupGatewayBody(fake));
    if (topUp) await topUpThroughSandbox(t, owner.token, topUp);
    const list = await addList(owner, phones);
    return { owner, gateway, ...list };
  }
  async function addList(owner: { user: { team_id: number } }, phones: string[]) {
    const teamId = owner.user.team_id;
    const s = await sql<{
      id: string;
    }>`insert into sources (team_id, name) values (${teamId}, ${`Source ${++seq}`}) returning id`.execute(db());
    const l = await sql<{ id: string }>`insert into lists (team_id, source_id, name)
      values (${teamId}, ${s.rows[0].id}, ${`List ${seq}`}) returning id`.execute(db());
    const sourceId = Number(s.rows[0].id);
    const listId = Number(l.rows[0].id);
    await sql`with made as (insert into leads (team_id, source_id, list_id, status)
        select ${teamId}, ${sourceId}, ${listId}, 'active' from unnest(${phones}::text[]) returning id),
      numbered as (select id, row_number() over (order by id) as n from made)
      insert into lead_values (team_id, lead_id, attribute_id, type, value)
      select ${teamId}, m.id, a.id, 'phone', (${phones}::text[])[m.n]
      from numbered m, lead_attributes a where a.team_id = ${teamId} and a.slug = 'phone'`.execute(db());
    return { sourceId, listId };
  }
  const phonesOf = (n: number, prefix = '+38067') =>
    Array.from({ length: n }, () => `${prefix}${String(1_000_000 + ++seq * 7).slice(-7)}`);
  const get = async (token: string, id: number) =>
    ((await api(token, 'GET', '/lookup?limit=100')).json().data as TLookup[]).find((l) => l.id === id) as TLookup;
  const until = (token: string, id: number, what: (l: TLookup) => boolean, label: string) =>
    waitUntil(label, async () => what(await get(token, id)), 30_000, 50);
  const charges = async (teamId: number) => {
    const r = await sql<{ n: string; total: string }>`select count(*) as n, coalesce(sum(amount), 0) as total
      from transactions where team_id = ${teamId} and type = 'lookup' and idempotency_key not like 'refund:%'`.execute(
      db(),
    );
    return { n: Number(r.rows[0].n), total: Number(r.rows[0].total) };
  };

  it('looks a list up once per phone, charged once each, with results in one vocabulary', async () => {
    const phones = [...phonesOf(6), '+380441234567', '+380671110000'];
    const { owner, listId, sourceId } = await team(phones);
    const preview = await api(owner.token, 'POST', '/lookup/preview', { list_ids: [listId] });
    expect(preview.json()).toMatchObject({ phones: 8, fresh: 0, to_pay: 8, price: 40, total: 320, lists: 1 });
    const started = await api(owner.token, 'POST', '/sources/lists/lookup', { ids: [listId] });
    expect(started.statusCode).toBe(200);
    expect(started.json().message.code).toBe('lookup_has_been_started');
    const [lookup] = started.json().lookups as TLookup[];
    expect(lookup).toMatchObject({ list: { id: listId }, source: { id: sourceId }, phones: 8 });
    // The sources' figures are cached by the team's data version: read once before the end, they
    // must still show the results as soon as the lookup completes.
    expect((await api(owner.token, 'GET', `/sources/${sourceId}`)).statusCode).toBe(200);
    await until(owner.token, lookup.id, (l) => l.status === 3, 'the lookup to complete');
    // 7 of 8 leads looked up as valid (one invalid), all 8 looked up.
    expect((await api(owner.token, 'GET', `/sources/${sourceId}`)).json()).toMatchObject({
      percentage_lookup: 100,
      percentage_verified: 87,
    });
    const done = await get(owner.token, lookup.id);
    expect(done).toMatchObject({ looked_up: 8, reused: 0, failed: 0, cost: 320, count: 0, percent: 100 });
    for (const p of phones) expect(fake.state.calls.get(p)).toBe(1);
    expect(await charges(owner.user.team_id)).toEqual({ n: 8, total: -320 });
    const results = await sql<{ phone: string; carrier_type: string; status_label: string; mcc_mnc: string | null }>`
      select phone, carrier_type, status_label, mcc_mnc from phone_lookups where team_id = ${owner.user.team_id}`.execute(
      db(),
    );
    const by = new Map(results.rows.map((r) => [r.phone, r]));
    expect(by.size).toBe(8);
    expect(by.get('+380441234567')).toMatchObject({ carrier_type: 'landline', status_label: 'valid' });
    expect(by.get('+380671110000')).toMatchObject({ status_label: 'invalid' });
    expect(by.get(phones[0])).toMatchObject({ carrier_type: 'mobile', status_label: 'valid', mcc_mnc: '25503' });
    await expectLedgerBalanced(t);
  });

  it('reuses a fresh result in another list without charging or calling, and says what it saved', async () => {
    const shared = phonesOf(3);
    const { owner, listId } = await team(shared);
    const first = (await api(owner.token, 'POST', '/sources/lists/lookup', { ids: [listId] })).json().lookups[0];
    await until(owner.token, first.id, (l) => l.status === 3, 'the first lookup');
    const second = await addList(owner, [...shared, ...phonesOf(2)]);
    const preview = (await api(owner.token, 'POST', '/lookup/preview', { source_ids: [second.sourceId] })).json();
    expect(preview).toMatchObject({ phones: 5, fresh: 3, to_pay: 2 });
    const run = (await api(owner.token, 'POST', '/sources/lookup', { ids: [second.sourceId] })).json().lookups[0];
    await until(owner.token, run.id, (l) => l.status === 3, 'the second lookup');
    expect(await get(owner.token, run.id)).toMatchObject({ reused: 3, looked_up: 2, saved: 120, cost: 80 });
    for (const p of shared) expect(fake.state.calls.get(p)).toBe(1);
    expect((await charges(owner.user.team_id)).n).toBe(5);
  });

  it('pauses when the balance runs out, and a start after a top-up finishes without a second charge', async () => {
    const phones = phonesOf(8);
    const { owner, listId } = await team(phones, '1.20');
    const run = (await api(owner.token, 'POST', '/lookup', { list_id: listId })).json();
    const id = run.lookups[0].id;
    await until(owner.token, id, (l) => l.status === 2, 'the pause for money');
    const paused = await get(owner.token, id);
    expect(paused.reason).toBe('balance_not_enough_lookup');
    // The balance covered three: at most those were looked up before the pause (a paid phone not
    // yet called keeps its charge for the resumed run).
    expect(paused.looked_up).toBeLessThanOrEqual(3);
    expect((await charges(owner.user.team_id)).n).toBe(3);
    expect((await api(owner.token, 'POST', `/lookup/${id}/status`, { status: 1 })).json().message.code).toBe(
      'balance_not_enough_lookup',
    );
    await topUpThroughSandbox(t, owner.token, '10.00');
    expect((await api(owner.token, 'POST', `/lookup/${id}/status`, { status: 1 })).json().message.code).toBe(
      'lookup_started',
    );
    await until(owner.token, id, (l) => l.status === 3, 'the lookup to finish');
    expect(await charges(owner.user.team_id)).toEqual({ n: 8, total: -320 });
    for (const p of phones) expect(fake.state.calls.get(p)).toBe(1);
    await expectLedgerBalanced(t);
  });

  it('refunds a phone whose provider call failed and charges its retry once', async () => {
    const phones = phonesOf(4);
    fake.state.failures.set(phones[0], 2);
    const { owner, listId } = await team(phones);
    const id = (await api(owner.token, 'POST', '/lookup', { list_id: listId })).json().lookups[0].id;
    await until(owner.token, id, (l) => l.status === 3, 'the lookup with retries');
    expect(fake.state.calls.get(phones[0])).toBe(3);
    const net = await charges(owner.user.team_id);
    // Three charges for the failing phone, two of them refunded: one net charge a phone.
    expect(net.n).toBe(6);
    const refunds = await sql<{ total: string }>`select coalesce(sum(amount), 0) as total from transactions
      where team_id = ${owner.user.team_id} and idempotency_key like 'refund:%'`.execute(db());
    expect(net.total + Number(refunds.rows[0].total)).toBe(-160);
    await expectLedgerBalanced(t);
  });

  it('stops within a second, refuses moves its status does not allow, and resumes', async () => {
    const phones = phonesOf(40);
    const { owner, listId } = await team(phones);
    fake.state.latencyMs = 100;
    try {
      const id = (await api(owner.token, 'POST', '/lookup', { list_id: listId })).json().lookups[0].id;
      await waitUntil('some calls', () => phones.some((p) => fake.state.calls.has(p)));
      const stopped = await api(owner.token, 'POST', '/lookup-stop', { ids: [id] });
      expect(stopped.json().lookups[0].status).toBe(2);
      await new Promise((r) => setTimeout(r, 1_000));
      const calls = phones.filter((p) => fake.state.calls.has(p)).length;
      await new Promise((r) => setTimeout(r, 700));
      expect(phones.filter((p) => fake.state.calls.has(p)).length).toBe(calls);
      expect(calls).toBeLessThan(40);
      const again = await api(owner.token, 'POST', `/lookup/${id}/status`, { status: 2 });
      expect(again.statusCode).toBe(422);
      expect(again.json().message).toBe('This lookup cannot be started or stopped from its status.');
      expect((await api(owner.token, 'POST', '/lookup-start', { ids: [id] })).json().lookups[0].status).toBe(1);
      await until(owner.token, id, (l) => l.status === 3, 'the resumed lookup');
      for (const p of phones) expect(fake.state.calls.get(p)).toBe(1);
      expect((await charges(owner.user.team_id)).n).toBe(40);
      expect((await api(owner.token, 'POST', `/lookup/${id}/status`, { status: 1 })).statusCode).toBe(422);
    } finally {
      fake.state.latencyMs = 0;
    }
  });

  it('keeps a lookup pending and says why when the team has no gateway that looks up', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '5.00');
    const { listId } = await addList(owner, phonesOf(2));
    const res = (await api(owner.token, 'POST', '/sources/lists/lookup', { ids: [listId] })).json();
    expect(res.message.code).toBe('lookup_gateway_missing');
    expect(res.lookups[0]).toMatchObject({ status: 0, reason: 'lookup_gateway_missing', phones: 2, gateway: null });
  });

  it("answers another team's lookups, lists and gateways with 404 and changes nothing; operators may not", async () => {
    const a = await team(phonesOf(2), null);
    const b = await team(phonesOf(2), null);
    const mine = (await api(a.owner.token, 'POST', '/lookup', { list_id: a.listId, start: false })).json().lookups[0];
    expect(mine.status).toBe(0);
    const before = await get(a.owner.token, mine.id);
    for (const [method, url, body] of [
      ['PUT', `/lookup/${mine.id}`, { gateway_id: b.gateway.id }],
      ['POST', `/lookup/${mine.id}/status`, { status: 1 }],
      ['DELETE', `/lookup/${mine.id}`, undefined],
      ['POST', '/lookup-start', { ids: [mine.id] }],
      ['POST', '/sources/lists/lookup', { ids: [a.listId] }],
      ['POST', '/sources/lookup', { ids: [a.sourceId] }],
      ['POST', '/lookup', { list_id: a.listId }],
    ] as const)
      expect((await api(b.owner.token, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    expect((await api(a.owner.token, 'PUT', `/lookup/${mine.id}`, { gateway_id: b.gateway.id })).statusCode).toBe(422);
    expect(await get(a.owner.token, mine.id)).toEqual(before);
    expect(((await api(b.owner.token, 'GET', '/lookup')).json().data as TLookup[]).map((l) => l.id)).not.toContain(
      mine.id,
    );
    const operator = await addMember(t, a.owner.token, 'team_operator');
    expect((await api(operator.token, 'GET', '/lookup')).statusCode).toBe(403);
    expect((await api(operator.token, 'POST', '/lookup-start', { ids: [mine.id] })).statusCode).toBe(403);
    const admin = await addMember(t, a.owner.token, 'team_admin');
    expect((await api(admin.token, 'GET', '/lookup/status')).json()).toMatchObject({
      in_progress: false,
      is_paid: true,
    });
    expect((await api(a.owner.token, 'DELETE', `/lookup/${mine.id}`)).json().code).toBe('lookup_deleted');
    expect((await api(a.owner.token, 'GET', '/lookup')).json().data).toEqual([]);
  });
});
