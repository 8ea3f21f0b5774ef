import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChargeRequest, createChargesService } from '../../src/modules/billing/charges.service.ts';
import { createLedgerRepository } from '../../src/modules/billing/ledger.repository.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('charges and shares on %s', (kind) => {
  let t: TestApp;
  // The free SMS a test's team gets from its plan (plans are another module's; here, a fixed figure).
  let freeTotal = 0;
  let charges: ReturnType<typeof createChargesService>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    charges = createChargesService({
      ledger: createLedgerRepository(),
      freeSms: async () => (freeTotal > 0 ? { total: freeTotal, since: new Date(Date.now() - 3600_000) } : null),
    });
  });
  afterEach(async () => {
    freeTotal = 0;
    await expectLedgerBalanced(t);
  });
  afterAll(() => t?.close());

  const db = () => t.app.services.database.db;
  const balance = async (token: string) => (await t.request({ method: 'GET', url: '/api/balance', token })).json();
  const charge = (teamId: number, requests: ChargeRequest[]) =>
    db()
      .transaction()
      .execute((tx) => charges.chargeMany(tx, teamId, requests));

  it('200 concurrent charges against a balance that covers 100 charge exactly 100 and leave 0', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '10.00');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        charge(owner.user.team_id, [
          { userId: owner.user.id, code: 'sent_single_message', amount: 10, key: `race-${i}` },
        ]),
      ),
    );
    const statuses = results.map((r) => r.results[0].status);
    expect(statuses.filter((s) => s === 'charged')).toHaveLength(100);
    expect(statuses.filter((s) => s === 'insufficient')).toHaveLength(100);
    expect((await balance(owner.token)).balance).toBe(0);
    const rows = await sql<{ n: number }>`select count(*)::int as n from transactions
      where user_id = ${owner.user.id} and type = 'sent_single_message'`.execute(db());
    expect(rows.rows[0].n).toBe(100);
  });

  it('charges a retried key once and answers it as the first time', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '1.00');
    const request: ChargeRequest = { userId: owner.user.id, code: 'lookup', amount: 30, key: 'lookup-7', name: 'HLR' };
    const first = await charge(owner.user.team_id, [request]);
    expect(first.results[0]).toMatchObject({ status: 'charged', amount: 30, replayed: false });
    const again = await Promise.all([charge(owner.user.team_id, [request]), charge(owner.user.team_id, [request])]);
    for (const a of again) expect(a.results[0]).toMatchObject({ status: 'charged', amount: 30, replayed: true });
    expect((await balance(owner.token)).balance).toBe(70);
    // The same key in one batch twice is one charge.
    const twice = await charge(owner.user.team_id, [
      { ...request, key: 'lookup-8' },
      { ...request, key: 'lookup-8' },
    ]);
    expect(twice.results.map((r) => r.status)).toEqual(['charged', 'charged']);
    expect((await balance(owner.token)).balance).toBe(40);
  });

  it('charges a batch in one go, the plan’s free SMS first, and the prefix the balance covers', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '1.00');
    freeTotal = 5;
    // 10 messages of 2 parts at 0.10 a part: 5 free parts, then 15 paid parts = 1.50 > 1.00.
    const batch = Array.from(
      { length: 10 },
      (_, i): ChargeRequest => ({
        userId: owner.user.id,
        code: 'sent_message',
        parts: 2,
        pricePerPart: 10,
        key: `msg-${i}`,
        name: 'Spring sale',
      }),
    );
    const { results, balances } = await charge(owner.user.team_id, batch);
    expect(results.map((r) => r.freeParts)).toEqual([2, 2, 1, 0, 0, 0, 0, 0, 0, 0]);
    expect(results.map((r) => r.amount)).toEqual([0, 0, 10, 20, 20, 20, 20, 20, 20, 20]);
    // 0 + 0 + 10 + 4×20 = 90 fits in 100; the fifth 20 would not.
    expect(results.map((r) => r.status)).toEqual([...Array(7).fill('charged'), ...Array(3).fill('insufficient')]);
    expect(balances.get(owner.user.id)).toBe(10);
    const free = await sql<{
      n: number;
    }>`select sum(free_parts)::int as n from transactions where user_id = ${owner.user.id}`.execute(db());
    expect(free.rows[0].n).toBe(5);
    // Free SMS used up: the next message is paid in full.
    const next = await charge(owner.user.team_id, [{ ...batch[0], key: 'msg-next', parts: 1 }]);
    expect(next.results[0]).toMatchObject({ status: 'charged', freeParts: 0, amount: 10 });
    expect((await balance(owner.token)).balance).toBe(0);
  });

  it('shares to a member, refills a member with auto-refill at the moment of a charge, refuses what is short', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    await topUpThroughSandbox(t, owner.token, '10.00');
    const shared = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '2.50', memberId: operator.user.id, autoRefill: true },
    });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({
      code: 'share_balance_successful',
      message: 'Share balance Successful',
      balance: 750,
      balance_member: { id: operator.user.id, balance: 250, balance_auto_refill: true },
    });
    const team = await t.request({ method: 'GET', url: '/api/team', token: owner.token });
    expect(team.json().data).toContainEqual(
      expect.objectContaining({ id: operator.user.id, balance: 250, balance_auto_refill: true }),
    );

    // The operator's charge of 4.00 finds 2.50: 1.50 comes from the owner in the same transaction.
    const { results } = await charge(owner.user.team_id, [
      { userId: operator.user.id, code: 'sent_single_message', amount: 400, key: 'single-1' },
    ]);
    expect(results[0].status).toBe('charged');
    expect((await balance(operator.token)).balance).toBe(0);
    expect((await balance(owner.token)).balance).toBe(600);
    const ownerRows = await t.request({
      method: 'GET',
      url: '/api/balance/transactions?order[0]=id,asc',
      token: owner.token,
    });
    expect(ownerRows.json().data.map((r: { type: string; amount: number }) => [r.type, r.amount])).toEqual([
      ['top_up', 1000],
      ['share_balance', -250],
      ['auto_share_balance', -150],
    ]);
    const operatorRows = await t.request({
      method: 'GET',
      url: '/api/balance/transactions?sorting=id,asc',
      token: operator.token,
    });
    expect(operatorRows.json().data.map((r: { type: string; amount: number }) => [r.type, r.amount])).toEqual([
      ['share_balance', 250],
      ['auto_share_balance', 150],
      ['sent_single_message', -400],
    ]);

    // More than the owner holds: refused, nothing moves.
    const short = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '6.01', memberId: operator.user.id },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.amount[0].code).toBe('balance_not_enough');
    expect((await balance(owner.token)).balance).toBe(600);
    const self = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '1', memberId: owner.user.id },
    });
    expect(self.statusCode).toBe(422);
  });

  it('refuses to share amounts that are not positive decimals with up to 2 decimals, translated, moving nothing', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    await topUpThroughSandbox(t, owner.token, '5000');
    for (const amount of ['1e3', '-5', '0.001', '12,34', 'NaN', '0', 0, -5, '', 1e3 + 0.001]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/balance/share',
        token: owner.token,
        payload: { amount, memberId: operator.user.id },
      });
      expect(res.statusCode, String(amount)).toBe(422);
      // The code the web translates: 'Please enter correct amount' under the field.
      expect(
        res.json().errors.amount.map((e: { code: string }) => e.code),
        String(amount),
      ).toEqual(['amount_invalid']);
    }
    expect((await balance(owner.token)).balance).toBe(500_000);
    expect((await balance(operator.token)).balance).toBe(0);
  });

  it('answers 404 for a member of another team and moves nothing', async () => {
    const owner = await signupVerified(t);
    const other = await signupVerified(t);
    const stranger = await addMember(t, other.token, 'team_admin');
    await topUpThroughSandbox(t, owner.token, '5');
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '1', memberId: stranger.user.id },
    });
    expect(res.statusCode).toBe(404);
    expect((await balance(owner.token)).balance).toBe(500);
    expect((await balance(stranger.token)).balance).toBe(0);
    // Charging another team's user through this team charges nothing.
    const { results } = await charge(owner.user.team_id, [
      { userId: stranger.user.id, code: 'lookup', amount: 1, key: 'x' },
    ]);
    expect(results[0].status).toBe('insufficient');
  });
});
