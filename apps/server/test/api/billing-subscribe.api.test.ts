import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RENEWAL_JOB } from '../../src/modules/billing/billing.jobs.ts';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, form, topUpThroughSandbox } from '../support/billing.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

// The shipped catalogue: Trial (1, 20 free SMS), Starter Pack (2, 299.00 UAH), …, Enterprise (6, contact us).
const STARTER = 2;
const ENTERPRISE = 6;
const TRIAL = 1;

describe.each(databases)('buying and renewing plans with the balance on %s', (kind) => {
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
  const ledger = async (token: string) =>
    (await get('/api/balance/transactions?order[0]=id,asc', token)).data.map((r: { type: string; amount: number }) => [
      r.type,
      r.amount,
    ]);

  it('buys a plan from a balance that covers it: paid and applied together', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '500');
    const res = await subscribe(owner.token, STARTER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'subscribed',
      code: 'subscribed_to_plan',
      message: 'Successfully subscribed to new plan',
      balance: 50_000 - 29_900,
      active_subscriptions: [expect.objectContaining({ plan_id: STARTER, trial: false })],
    });
    expect((await get('/api/subscriptions', owner.token)).active_subscriptions[0].plan_id).toBe(STARTER);
    expect(await ledger(owner.token)).toEqual([
      ['top_up', 50_000],
      ['subscribe_payment', -29_900],
    ]);
  });

  it('answers a checkout for the price when the balance is short, and applies the plan on its callback', async () => {
    const owner = await signupVerified(t);
    const res = await subscribe(owner.token, STARTER);
    expect(res.json()).toMatchObject({ status: 'checkout', amount: 29_900, currency: 'UAH' });
    expect((await get('/api/subscriptions', owner.token)).active_subscriptions[0].plan_id).toBe(TRIAL);
    const { data, signature } = res.json();
    const paid = await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data, signature, decision: 'pay' }),
    });
    expect(paid.statusCode).toBe(303);
    expect((await get('/api/subscriptions', owner.token)).active_subscriptions[0].plan_id).toBe(STARTER);
    expect((await get('/api/balance', owner.token)).balance).toBe(0);
    expect(await ledger(owner.token)).toEqual([
      ['top_up', 29_900],
      ['subscribe_payment', -29_900],
    ]);
  });

  it('a double submit on a short balance opens one order: the plan cannot be paid twice', async () => {
    const owner = await signupVerified(t);
    const answers = await Promise.all([subscribe(owner.token, STARTER), subscribe(owner.token, STARTER)]);
    expect(answers.map((a) => a.json().status)).toEqual(['checkout', 'checkout']);
    expect(answers[0].json().order_id).toBe(answers[1].json().order_id);
    const orders = await sql<{ n: number }>`select count(*)::int as n from payment_orders
      where team_id = ${owner.user.team_id}`.execute(db());
    expect(orders.rows[0].n).toBe(1);
    // Another plan is another order; one left unpaid for over half an hour is not opened again.
    const other = await subscribe(owner.token, STARTER + 1);
    expect(other.json().order_id).not.toBe(answers[0].json().order_id);
    await sql`update payment_orders set created_at = now() - interval '31 minutes'
      where order_id = ${answers[0].json().order_id}`.execute(db());
    expect((await subscribe(owner.token, STARTER)).json().order_id).not.toBe(answers[0].json().order_id);
  });

  it('a double submit buys once: two identical purchases at once charge one price', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '1000');
    const answers = await Promise.all([subscribe(owner.token, STARTER), subscribe(owner.token, STARTER)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    const refused = answers.find((a) => a.statusCode === 422);
    expect(refused?.json().errors.plan_id[0].code).toBe('plan_already_active');
    expect(await ledger(owner.token)).toEqual([
      ['top_up', 100_000],
      ['subscribe_payment', -29_900],
    ]);
    expect((await get('/api/balance', owner.token)).balance).toBe(100_000 - 29_900);
    const held = (await get('/api/subscriptions', owner.token)).active_subscriptions;
    expect(held).toEqual([expect.objectContaining({ plan_id: STARTER })]);
    // Once it has lapsed, the same plan can be bought again.
    await sql`update subscriptions set period_starts_at = now() - interval '31 days', ends_at = now() - interval '1 minute'
      where ended_at is null and team_id = ${owner.user.team_id}`.execute(db());
    expect((await subscribe(owner.token, STARTER)).statusCode).toBe(200);
    expect((await get('/api/balance', owner.token)).balance).toBe(100_000 - 2 * 29_900);
  });

  it('refuses plans that are not sold (Enterprise, Trial) and unknown ones', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '100');
    for (const plan of [ENTERPRISE, TRIAL]) {
      const res = await subscribe(owner.token, plan);
      expect(res.statusCode, String(plan)).toBe(422);
      expect(res.json().errors.plan_id[0].code).toBe('plan_not_purchasable');
    }
    expect((await subscribe(owner.token, 999)).statusCode).toBe(404);
    expect((await get('/api/balance', owner.token)).balance).toBe(10_000);
  });

  it('spends the plan’s free SMS before money, and shows what is left', async () => {
    const owner = await signupVerified(t);
    expect((await get('/api/user', owner.token)).free_sms).toEqual({ remaining: 20, total: 20 });
    const used = await t.request({
      method: 'POST',
      url: '/api/subscriptions/test',
      token: owner.token,
      payload: { key: 'send-sms' },
    });
    expect(used.statusCode).toBe(200);
    expect(used.json().code).toBe('sms_test_sent');
    expect((await get('/api/user', owner.token)).free_sms).toEqual({ remaining: 10, total: 20 });
    expect((await get('/api/balance', owner.token)).free_sms).toEqual({ remaining: 10, total: 20 });
    const rows = (await get('/api/balance/transactions', owner.token)).data;
    expect(rows).toEqual([expect.objectContaining({ type: 'sent_message', amount: 0, count: 10, free_parts: 10 })]);
    const feature = (await get('/api/subscriptions', owner.token)).active_subscriptions[0].features.find(
      (f: { slug: string }) => f.slug === 'free-sms-limit',
    );
    expect(feature).toMatchObject({ feature_usage: 10, feature_remaining: 10 });
  });

  it('renews a due subscription from the balance once per period; a short balance ends it and mails the owner', async () => {
    const paying = await signupVerified(t);
    await topUpThroughSandbox(t, paying.token, '700');
    expect((await subscribe(paying.token, STARTER)).json().status).toBe('subscribed');
    const short = await signupVerified(t);
    await topUpThroughSandbox(t, short.token, '300');
    expect((await subscribe(short.token, STARTER)).json().status).toBe('subscribed');
    // Both periods are over.
    await sql`update subscriptions set period_starts_at = now() - interval '31 days', ends_at = now() - interval '1 minute'
      where ended_at is null and team_id in (${paying.user.team_id}, ${short.user.team_id})`.execute(db());

    await t.app.services.jobs.send(RENEWAL_JOB, {});
    await t.app.services.jobs.send(RENEWAL_JOB, {});
    await waitUntil('the short team’s subscription to end', async () => {
      return (await get('/api/subscriptions', short.token)).active_subscriptions.length === 0;
    });
    await waitUntil('the paying team’s renewal', async () => (await ledger(paying.token)).length === 3);
    const mail = await t.waitForMail(short.email, 2);
    expect(mail.subject).toContain('plan has ended');

    const sub = (await get('/api/subscriptions', paying.token)).active_subscriptions[0];
    expect(sub.plan_id).toBe(STARTER);
    expect(new Date(sub.ends_at).getTime()).toBeGreaterThan(Date.now());
    expect(await ledger(paying.token)).toEqual([
      ['top_up', 70_000],
      ['subscribe_payment', -29_900],
      ['subscribe_payment', -29_900],
    ]);
    expect((await get('/api/balance', paying.token)).balance).toBe(70_000 - 2 * 29_900);
    expect((await get('/api/balance', short.token)).balance).toBe(100);
    const mailsToShort = t.mails().filter((m) => m.to.includes(short.email));
    expect(mailsToShort.filter((m) => m.subject.includes('plan has ended'))).toHaveLength(1);
  });
});
