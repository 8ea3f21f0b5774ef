import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { startImport, waitForImport } from '../fixtures/imports/import-client.ts';
import { catalogueWithTrial } from '../fixtures/plans/catalogue.ts';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

// The shipped catalogue's Enterprise: every limit unlimited, `history-days` too.
const ENTERPRISE = 6;

/**
 * The plan's `history-days` (decision 015, "History"): the team sees that many days back of its
 * Timeline (messages included), import history and transactions; older rows are kept, not shown.
 */
describe.each(databases)('the plan’s history window on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { HERALD_PLANS_FILE: catalogueWithTrial({ 'history-days': 14 }) });
  });
  afterEach(() => expectLedgerBalanced(t));
  afterAll(() => t?.close());

  const db = () => t.app.services.database.db;
  const get = async (url: string, token: string) => (await t.request({ method: 'GET', url, token })).json();

  it('leaves out what is older than the plan’s days, and shows it all on a plan without a limit', async () => {
    const owner = await signupVerified(t);
    const teamId = owner.user.team_id;
    const { phone } = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token, 'History');
    const lead = (await createLead(t, owner.token, source.id, list.id, [[phone, '+380501112233']])).json();
    await t.request({
      method: 'PUT',
      url: '/api/leads/batch-status',
      token: owner.token,
      payload: { ids: [lead.id], status: 'flagged' },
    });
    await topUpThroughSandbox(t, owner.token, '10');
    await topUpThroughSandbox(t, owner.token, '20');
    const done = await startImport(t, owner.token, list.id, 'old.csv', csv(['Phone', '+380501112244']), {
      Phone: phone,
    });
    expect((await waitForImport(t, owner.token, done.id)).status).toBe('completed');
    const logs = async () => get(`/api/leads/${lead.id}/log`, owner.token);
    expect((await logs()).meta.total).toBe(2);

    // One of each, 20 days old: outside the Trial's 14 days.
    await sql`update lead_logs set created_at = now() - interval '20 days'
      where id = (select min(id) from lead_logs where team_id = ${teamId} and lead_id = ${lead.id})`.execute(db());
    await sql`update transactions set created_at = now() - interval '20 days'
      where id = (select min(id) from transactions where team_id = ${teamId})`.execute(db());
    await sql`update import_files set created_at = now() - interval '21 days', finished_at = now() - interval '20 days'
      where id = ${done.id}`.execute(db());

    expect((await logs()).meta.total).toBe(1);
    expect((await logs()).data).toHaveLength(1);
    const rows = await get('/api/balance/transactions', owner.token);
    expect(rows.data.map((r: { amount: number }) => r.amount)).toEqual([2000]);
    expect(await get('/api/balance/transactions/total', owner.token)).toEqual({
      total: 1,
      credited: 2000,
      debited: 0,
    });
    expect((await get('/api/imports', owner.token)).data).toEqual([]);
    // The balance is all of the ledger, whatever is shown of it.
    expect((await get('/api/balance', owner.token)).balance).toBe(3000);

    // A plan without a history limit shows everything again: nothing was deleted.
    await sql`update subscriptions set plan_id = ${ENTERPRISE} where team_id = ${teamId} and ended_at is null`.execute(
      db(),
    );
    expect((await logs()).meta.total).toBe(2);
    expect((await get('/api/balance/transactions', owner.token)).data).toHaveLength(2);
    expect((await get('/api/imports', owner.token)).data.map((i: { id: number }) => i.id)).toEqual([done.id]);
  });
});
