import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChargesService } from '../../src/modules/billing/charges.service.ts';
import { createLedgerRepository } from '../../src/modules/billing/ledger.repository.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, form, signedCallback, topUpThroughSandbox } from '../support/billing.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

// The shipped catalogue: Trial (1), Starter Pack (2, 299.00 UAH), …
const STARTER = 2;

describe.each(databases)('plan orders and crossing shares on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { HERALD_PLANS_FILE: '' });
  });
  afterEach(() => expectLedgerBalanced(t));
  afterAll(() => t?.close());

  const db = () => t.app.services.database.db;
  const get = async (url: string, token: string) => (await t.request({ method: 'GET', url, token })).json();
  const subscribe = (token: string, plan_id: number) =>
    t.request({ method: 'POST', url: '/api/balance/subscribe', token, payload: { plan_id } });
  const periods = async (teamId: number) =>
    (
      await sql<{ n: number }>`select count(*)::int as n from subscriptions
        where team_id = ${teamId} and plan_id = ${STARTER}`.execute(db())
    ).rows[0].n;
  const statusOf = async (orderId: string) =>
    (await sql<{ status: string }>`select status from payment_orders where order_id = ${orderId}`.execute(db())).rows[0]
      .status;

  it('a plan bought from the balance closes its open order; that order paid late credits the balance and buys nothing', async () => {
    const owner = await signupVerified(t);
    const opened = (await subscribe(owner.token, STARTER)).json();
    expect(opened).toMatchObject({ status: 'checkout', test_payments: true });
    // The checkout says until when it may be paid: 30 minutes (decision 016).
    const ttl = Date.parse(opened.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000);

    await topUpThroughSandbox(t, owner.token, '299.00');
    expect((await subscribe(owner.token, STARTER)).json().status).toBe('subscribed');
    expect(await statusOf(opened.order_id)).toBe('closed');
    expect(await periods(owner.user.team_id)).toBe(1);

    // The closed order is paid anyway (its tab was left open): the money lands on the balance.
    const late = await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data: opened.data, signature: opened.signature, decision: 'pay' }),
    });
    expect(late.statusCode).toBe(303);
    expect(await statusOf(opened.order_id)).toBe('paid');
    expect(await periods(owner.user.team_id)).toBe(1);
    expect((await get('/api/balance', owner.token)).balance).toBe(29_900);
    const types = (await get('/api/balance/transactions?order[0]=id,asc', owner.token)).data.map(
      (r: { type: string; amount: number }) => [r.type, r.amount],
    );
    expect(types).toEqual([
      ['top_up', 29_900],
      ['subscribe_payment', -29_900],
      ['top_up', 29_900],
    ]);
  });

  it('a plan on a short balance: the card pays the rest, the balance the part it holds', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '100.00');
    const opened = (await subscribe(owner.token, STARTER)).json();
    expect(opened).toMatchObject({ status: 'checkout', amount: 19_900 });
    const paid = await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data: opened.data, signature: opened.signature, decision: 'pay' }),
    });
    expect(paid.statusCode).toBe(303);
    expect(await periods(owner.user.team_id)).toBe(1);
    expect((await get('/api/balance', owner.token)).balance).toBe(0);
    const rows = (await get('/api/balance/transactions?order[0]=id,asc', owner.token)).data.map(
      (r: { type: string; amount: number; plan_id: number | null; order_id: string | null }) => [
        r.type,
        r.amount,
        r.plan_id,
        r.order_id === opened.order_id,
      ],
    );
    expect(rows).toEqual([
      ['top_up', 10_000, null, false],
      ['top_up', 19_900, null, true],
      ['subscribe_payment', -29_900, STARTER, true],
    ]);
  });

  it('a plan order paid after it expired, or after the plan was bought by another order, buys nothing', async () => {
    const owner = await signupVerified(t);
    const first = (await subscribe(owner.token, STARTER)).json();
    await sql`update payment_orders set created_at = now() - interval '31 minutes'
      where order_id = ${first.order_id}`.execute(db());
    const second = (await subscribe(owner.token, STARTER)).json();
    expect(second.order_id).not.toBe(first.order_id);

    const paidLate = await t.request({
      method: 'POST',
      url: '/api/balance/callback',
      ...(await signedCallback(t, first, 'sandbox')),
    });
    expect(paidLate.json()).toEqual({ status: 'credited' });
    expect(await periods(owner.user.team_id)).toBe(0);

    const paid = await t.request({
      method: 'POST',
      url: '/api/balance/callback',
      ...(await signedCallback(t, second, 'sandbox')),
    });
    expect(paid.json()).toEqual({ status: 'paid' });
    expect(await periods(owner.user.team_id)).toBe(1);
    expect((await get('/api/balance', owner.token)).balance).toBe(29_900);
  });

  it('40 shares crossing between two admins at once, with charges meanwhile: no 500, ledger = balance', async () => {
    const owner = await signupVerified(t);
    const admin = await addMember(t, owner.token, 'team_admin');
    await topUpThroughSandbox(t, owner.token, '100.00');
    await topUpThroughSandbox(t, admin.token, '100.00');
    // The admin refills from the owner when short (auto-refill), so charges cross too.
    await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '1', memberId: admin.user.id, autoRefill: true },
    });
    const charges = createChargesService({ ledger: createLedgerRepository(), freeSms: async () => null });
    // Charges of the admin that outrun their balance, refilled from the owner's mid-charge.
    const charging = Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db()
          .transaction()
          .execute((tx) =>
            charges.chargeMany(tx, owner.user.team_id, [
              { userId: admin.user.id, code: 'lookup', amount: 1_500, key: `cross-${i}` },
            ]),
          ),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [owner, admin] : [admin, owner];
        return t.request({
          method: 'POST',
          url: '/api/balance/share',
          token: from.token,
          payload: { amount: String(1 + (i % 7)), memberId: to.user.id, autoRefill: i % 4 === 0 },
        });
      }),
    );
    const charged = (await charging).filter((c) => c.results[0].status === 'charged').length;
    // Each answers done, or refused for a short balance (the refills drain the owner): never a 500.
    for (const a of answers) {
      if (a.statusCode !== 200) expect(a.json().errors?.amount?.[0]?.code, a.body).toBe('balance_not_enough');
    }
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(20);
    const total = (await get('/api/balance', owner.token)).balance + (await get('/api/balance', admin.token)).balance;
    expect(total).toBe(20_000 - charged * 1_500);
  });
});
