import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * A provider of our own making, as a generic HTTP gateway declares it: `GET /v1/number?msisdn=…`
 * with a Bearer token, answering `{result: {operator: {name, network}, line, state, ported}}`.
 * Kyiv landlines (+38044) are `FIX`, numbers ending in 0000 are `DEAD`, numbers ending in 9999
 * get an answer of another shape (none of the declared paths), the rest are Kyivstar `CELL`.
 */
async function startOwnLookup() {
  const token = randomBytes(12).toString('hex');
  const calls = new Map<string, number>();
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'unauthorized' });
    if (req.method !== 'GET' || url.pathname !== '/v1/number') return send(404, { error: 'not found' });
    const phone = url.searchParams.get('msisdn') ?? '';
    calls.set(phone, (calls.get(phone) ?? 0) + 1);
    if (phone.endsWith('9999')) return send(200, { number: phone, note: 'no data' });
    const landline = phone.startsWith('+38044');
    send(200, {
      result: {
        operator: landline ? { name: 'Ukrtelecom', network: null } : { name: 'Kyivstar', network: '255-03' },
        line: landline ? 'FIX' : 'CELL',
        state: phone.endsWith('0000') ? 'DEAD' : 'LIVE',
        ported: 'no',
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(databases)('a generic HTTP gateway that looks up, on %s', (kind) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startOwnLookup>>;
  beforeAll(async () => {
    provider = await startOwnLookup();
    t = await startTestApp(
      kind,
      {},
      { lookupsEngine: { tickMs: 50, retryMs: 50, batch: 5, lanes: 2, rateLimit: false } },
    );
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });
  const db = () => t.app.services.database.db;
  const api = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url: `/api${url}`, token, ...(payload ? { payload } : {}) });
  const lookupOf = async (token: string, id: number) =>
    ((await api(token, 'GET', '/lookup?limit=100')).json().data as TLookup[]).find((l) => l.id === id) as TLookup;

  /** The gateway's form: sending through the same provider, its lookup declared by URL and paths. */
  const body = (over: Record<string, string> = {}, allowLookup = true) => ({
    type: 'generic_http',
    name: 'Own provider',
    allow_lookup: allowLookup,
    credentials: {
      url: `${provider.url}/v1/send`,
      auth_scheme: 'bearer',
      access_token: provider.token,
      lookup_url: `${provider.url}/v1/number?msisdn={{phone}}`,
      lookup_carrier_path: 'result.operator.name',
      lookup_mcc_mnc_path: 'result.operator.network',
      lookup_type_path: 'result.line',
      lookup_type_map: 'CELL=mobile\nFIX=landline',
      lookup_valid_path: 'result.state',
      lookup_valid_map: 'LIVE=valid\nDEAD=invalid',
      lookup_ported_path: 'result.ported',
      ...over,
    },
  });

  /** A team with money, a list of these phones, and a lookup of it started through the gateway. */
  async function lookUp(phones: string[], gatewayOver: Record<string, string> = {}) {
    const owner = await signupVerified(t);
    await createGateway(t, owner.token, body(gatewayOver));
    await topUpThroughSandbox(t, owner.token, '50.00');
    const { source, list } = await sourceWithList(t, owner.token);
    const ids = await attributeIds(t, owner.token);
    for (const p of phones) await createLead(t, owner.token, source.id, list.id, [[ids.phone, p]]);
    const started = await api(owner.token, 'POST', '/sources/lists/lookup', { ids: [list.id] });
    expect(started.statusCode, started.body).toBe(200);
    return { owner, list, lookup: (started.json().lookups as TLookup[])[0] };
  }

  it('looks up only when it declares a lookup URL: the capability follows the gateway, not its type', async () => {
    const owner = await signupVerified(t);
    const refused = await api(owner.token, 'POST', '/config/gateway/messaging', body({ lookup_url: '' }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.allow_lookup[0].code).toBe('gateway_lookup_unsupported');
    const sending = await createGateway(t, owner.token, body({ lookup_url: '' }, false));
    const looking = await createGateway(t, owner.token, body());
    const listed = (await api(owner.token, 'GET', '/config/gateway/messaging')).json().data as Array<{
      id: number;
      capabilities: { lookup: boolean };
    }>;
    expect(listed.find((g) => g.id === sending.id)?.capabilities.lookup).toBe(false);
    expect(listed.find((g) => g.id === looking.id)?.capabilities.lookup).toBe(true);
  });

  it('looks a list up through it: results on the phone values in the one vocabulary, a missing path unknown', async () => {
    const phones = ['+380671234561', '+380441234567', '+380671110000', '+380671119999'];
    const { owner, list, lookup } = await lookUp(phones);
    await waitUntil(
      'the lookup to complete',
      async () => (await lookupOf(owner.token, lookup.id)).status === 3,
      30_000,
      50,
    );
    expect(await lookupOf(owner.token, lookup.id)).toMatchObject({ looked_up: 4, failed: 0, cost: 160 });
    for (const p of phones) expect(provider.calls.get(p)).toBe(1);
    const rows = await sql<{ phone: string; mcc_mnc: string | null; ported: boolean | null }>`select phone, mcc_mnc,
      ported from phone_lookups where team_id = ${owner.user.team_id}`.execute(db());
    const stored = new Map(rows.rows.map((r) => [r.phone, r]));
    expect(stored.get(phones[0])).toMatchObject({ mcc_mnc: '25503', ported: false });
    expect(stored.get(phones[3])).toMatchObject({ mcc_mnc: null, ported: null });

    const page = (await api(owner.token, 'GET', `/lists/${list.id}/leads?limit=50`)).json();
    const values = page.data.flatMap((l: { lead_values: Array<{ value: string }> }) => l.lead_values);
    const shown = (phone: string) => values.find((v: { value: string }) => v.value === phone);
    expect(shown(phones[0])).toMatchObject({ carrier_name: 'Kyivstar', carrier_type: 'mobile', status_label: 'valid' });
    expect(shown(phones[1])).toMatchObject({
      carrier_name: 'Ukrtelecom',
      carrier_type: 'landline',
      status_label: 'valid',
    });
    expect(shown(phones[2])).toMatchObject({ carrier_type: 'mobile', status_label: 'invalid' });
    expect(shown(phones[3])).toMatchObject({ carrier_name: null, carrier_type: 'other', status_label: 'unknown' });
    await expectLedgerBalanced(t);
  });

  it('reads a status its map does not name as unknown, a common word as such, and a path to nothing as null', async () => {
    const phones = ['+380671234562', '+380671230000'];
    const unmapped = await lookUp(phones.slice(0, 1), { lookup_valid_map: 'ALIVE=valid' });
    const { owner, list, lookup } = await lookUp(phones, {
      lookup_valid_path: 'result.ported',
      lookup_carrier_path: 'result.operator.nowhere',
    });
    await waitUntil(
      'the lookup to complete',
      async () => (await lookupOf(unmapped.owner.token, unmapped.lookup.id)).status === 3,
      30_000,
      50,
    );
    const theirs = (await api(unmapped.owner.token, 'GET', `/lists/${unmapped.list.id}/leads?limit=50`)).json();
    // `LIVE` is not in that gateway's map nor a common word: unknown, never a guess.
    expect(theirs.data[0].lead_values.find((v: { value: string }) => v.value === phones[0])).toMatchObject({
      carrier_name: 'Kyivstar',
      status_label: 'unknown',
    });
    await waitUntil(
      'the lookup to complete',
      async () => (await lookupOf(owner.token, lookup.id)).status === 3,
      30_000,
      50,
    );
    const page = (await api(owner.token, 'GET', `/lists/${list.id}/leads?limit=50`)).json();
    const values = page.data.flatMap((l: { lead_values: Array<{ value: string }> }) => l.lead_values);
    // `ported: "no"` read as the valid flag: invalid; the carrier's path leads nowhere: no name.
    for (const p of phones)
      expect(values.find((v: { value: string }) => v.value === p)).toMatchObject({
        carrier_name: null,
        carrier_type: 'mobile',
        status_label: 'invalid',
      });
  });

  it('pauses with the auth reason when the provider refuses the credentials, and gives every charge back', async () => {
    const phones = ['+380671234563', '+380671234564', '+380671234565'];
    const { owner, lookup } = await lookUp(phones, { access_token: 'wrong' });
    await waitUntil('the pause', async () => (await lookupOf(owner.token, lookup.id)).status === 2, 30_000, 50);
    const paused = await lookupOf(owner.token, lookup.id);
    expect(paused.reason).toContain('gateway_auth_failed');
    expect(paused).toMatchObject({ looked_up: 0, failed: 0 });
    const results = await sql<{ n: string }>`select count(*) as n from phone_lookups
      where team_id = ${owner.user.team_id}`.execute(db());
    expect(Number(results.rows[0].n)).toBe(0);
    // Every charge of a refused call was refunded: the balance is the top-up again.
    const charged = await sql<{
      n: string;
    }>`select count(*) as n from transactions where team_id = ${owner.user.team_id}
      and type = 'lookup' and idempotency_key not like 'refund:%'`.execute(db());
    expect(Number(charged.rows[0].n)).toBeGreaterThan(0);
    await waitUntil(
      'the refunds',
      async () => (await api(owner.token, 'GET', '/balance')).json().balance === 5000,
      10_000,
      50,
    );
    await expectLedgerBalanced(t);
  });
});
