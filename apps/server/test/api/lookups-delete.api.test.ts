import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { type FakeLookup, lookupGatewayBody, startFakeLookup } from '../support/fake-providers/fake-lookup.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const TOP_UP = 5000;
const PRICE = 40;

/**
 * A list (or a source) deleted while its lookup runs (decision 040): the phones charged and not
 * looked up are refunded, the lookup ends with the list, and its process in the launcher's popover
 * does not stay running. The provider is held, so phones are charged and their calls in flight
 * when the delete comes.
 */
describe.each(databases)('deleting the list of a running lookup, on %s', (kind) => {
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
  const api = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url: `/api${url}`, token, ...(payload ? { payload } : {}) });
  let seq = 0;
  const phonesOf = (n: number) => Array.from({ length: n }, () => `+38067${String(2_000_000 + ++seq * 13).slice(-7)}`);
  const balance = async (token: string) => (await api(token, 'GET', '/balance')).json().balance as number;
  const lookupOf = async (token: string, id: number) =>
    ((await api(token, 'GET', '/lookup?limit=100')).json().data as TLookup[]).find((l) => l.id === id);
  const charges = async (teamId: number) => {
    const r = await sql<{ n: string }>`select count(*) as n from transactions
      where team_id = ${teamId} and type = 'lookup' and idempotency_key not like 'refund:%'`.execute(db());
    return Number(r.rows[0].n);
  };
  const results = async (teamId: number) => {
    const r = await sql<{ n: string }>`select count(*) as n from phone_lookups where team_id = ${teamId}`.execute(db());
    return Number(r.rows[0].n);
  };

  /** A team with money, a lookup gateway on the fake, and a running lookup of a list of `n` phones. */
  async function running(n: number) {
    const owner = await signupVerified(t);
    await createGateway(t, owner.token, lookupGatewayBody(fake));
    await topUpThroughSandbox(t, owner.token, '50.00');
    const { source, list } = await sourceWithList(t, owner.token, `Source ${++seq}`);
    const ids = await attributeIds(t, owner.token);
    for (const p of phonesOf(n)) await createLead(t, owner.token, source.id, list.id, [[ids.phone, p]]);
    const started = await api(owner.token, 'POST', '/sources/lists/lookup', { ids: [list.id] });
    expect(started.statusCode, started.body).toBe(200);
    const lookup = (started.json().lookups as TLookup[])[0];
    return { owner, source, list, lookup, teamId: owner.user.team_id };
  }

  /** What must hold once the list went: nothing of the lookup left, the money of the unfinished back. */
  async function expectEnded(w: Awaited<ReturnType<typeof running>>) {
    expect(await lookupOf(w.owner.token, w.lookup.id)).toBeUndefined();
    const left = await sql<{ n: string }>`select count(*) as n from lookups where id = ${w.lookup.id}`.execute(db());
    expect(Number(left.rows[0].n)).toBe(0);
    // Its process is not left running in the popover.
    const processes = await sql<{ status: string }>`select status from processes
      where team_id = ${w.teamId} and kind = 'lookups.run'`.execute(db());
    expect(processes.rows.length).toBeGreaterThan(0);
    for (const p of processes.rows) expect(p.status).toBe('cancelled');
    // Only the phones looked up stay paid: price × results (none or some), the rest refunded.
    const done = await results(w.teamId);
    expect(await balance(w.owner.token)).toBe(TOP_UP - PRICE * done);
    await expectLedgerBalanced(t);
  }

  it('refunds the phones charged while their calls were in flight, and the lookup ends with the list', async () => {
    let release = () => {};
    fake.state.hold = new Promise<void>((r) => {
      release = r;
    });
    try {
      const w = await running(30);
      // Two lanes of five: ten phones charged, their calls held at the provider.
      await waitUntil('phones charged', async () => (await charges(w.teamId)) >= 10, 30_000, 50);
      expect(await balance(w.owner.token)).toBeLessThan(TOP_UP);
      const deleted = await api(w.owner.token, 'DELETE', `/sources/lists/batch?ids[0]=${w.list.id}`);
      expect(deleted.json()).toEqual({ deleted: 1 });
      release();
      fake.state.hold = null;
      await expectEnded(w);
      expect(await results(w.teamId)).toBe(0);
      // The held calls answering afterwards charge nothing more and write nothing.
      await new Promise((r) => setTimeout(r, 300));
      expect(await balance(w.owner.token)).toBe(TOP_UP);
      expect(await results(w.teamId)).toBe(0);
    } finally {
      release();
      fake.state.hold = null;
    }
  });

  it('deleting the source does the same, keeping what was looked up (and paid) before', async () => {
    fake.state.latencyMs = 100;
    try {
      const w = await running(60);
      await waitUntil('some results', async () => (await results(w.teamId)) >= 5, 30_000, 20);
      const deleted = await api(w.owner.token, 'DELETE', `/sources/batch?ids[0]=${w.source.id}`);
      expect(deleted.json()).toEqual({ deleted: 1 });
      await expectEnded(w);
      const done = await results(w.teamId);
      expect(done).toBeGreaterThanOrEqual(5);
      expect(done).toBeLessThan(60);
    } finally {
      fake.state.latencyMs = 0;
    }
  });
});
