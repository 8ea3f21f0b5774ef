import { afterAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { form, topUpThroughSandbox } from '../support/billing.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('test payments on %s', (kind) => {
  const started: TestApp[] = [];
  afterAll(async () => {
    for (const t of started) await t.close();
  });

  it(
    kind === 'postgres'
      ? 'refuses to start without payment keys unless HERALD_PAYMENTS=sandbox'
      : 'takes test payments by default, and says so on the balance and the checkout',
    async () => {
      // No HERALD_PAYMENTS: what an installation gets when it sets nothing.
      const start = startTestApp(kind, { HERALD_PAYMENTS: '' });
      if (kind === 'postgres') {
        await expect(start).rejects.toThrow(/HERALD_PAYMENTS=sandbox/);
        return;
      }
      const t = await start;
      started.push(t);
      const owner = await signupVerified(t);
      const balance = await t.request({ method: 'GET', url: '/api/balance', token: owner.token });
      expect(balance.json()).toMatchObject({ test_payments: true, debt: 0 });
      const checkout = await t.request({
        method: 'POST',
        url: '/api/balance/topup',
        token: owner.token,
        payload: { amount: '10' },
      });
      expect(checkout.json()).toMatchObject({
        test_payments: true,
        checkout_url: 'http://herald.test/checkout/sandbox',
      });
      const page = await t.request({
        method: 'POST',
        url: '/checkout/sandbox',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ data: checkout.json().data, signature: checkout.json().signature }).toString(),
      });
      expect(page.body).toContain('Test payments — no real money');
      expect(page.body).toMatch(/Pay by<\/dt><dd>\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    },
  );

  it('with LiqPay keys starts on either database and marks no test payments', async () => {
    const t = await startTestApp(kind, {
      LIQPAY_PUBLIC_KEY: 'i000',
      LIQPAY_PRIVATE_KEY: 'secret',
      HERALD_PAYMENTS: '',
    });
    started.push(t);
    const owner = await signupVerified(t);
    const balance = await t.request({ method: 'GET', url: '/api/balance', token: owner.token });
    expect(balance.json()).toMatchObject({ test_payments: false });
  });

  it('says how a payment went on the page the checkout returns to; another user’s order is 404', async () => {
    const t = await startTestApp(kind);
    started.push(t);
    const owner = await signupVerified(t);
    const paid = await topUpThroughSandbox(t, owner.token, '12.00');
    const order = await t.request({ method: 'GET', url: `/api/balance/orders/${paid.order_id}`, token: owner.token });
    expect(order.json()).toMatchObject({ status: 'paid', purpose: 'top_up', amount: 1_200, balance: 1_200, debt: 0 });
    const open = (
      await t.request({ method: 'POST', url: '/api/balance/topup', token: owner.token, payload: { amount: '3' } })
    ).json();
    await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data: open.data, signature: open.signature, decision: 'decline' }),
    });
    const declined = await t.request({
      method: 'GET',
      url: `/api/balance/orders/${open.order_id}`,
      token: owner.token,
    });
    expect(declined.json()).toMatchObject({ status: 'declined', balance: 1_200 });
    const stranger = await signupVerified(t);
    const foreign = await t.request({
      method: 'GET',
      url: `/api/balance/orders/${paid.order_id}`,
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('tells billing.balance_raised after a top-up and to the member a share raised, after the commit', async () => {
    const heard: Array<{ teamId: number; userId: number }> = [];
    const t = await startTestApp(
      kind,
      {},
      { onDomainEvents: (hub) => hub.on('billing.balance_raised', (e) => void heard.push(e)) },
    );
    started.push(t);
    const owner = await signupVerified(t);
    const member = await addMember(t, owner.token, 'team_operator');
    await topUpThroughSandbox(t, owner.token, '5.00');
    expect(heard).toEqual([{ teamId: owner.user.team_id, userId: owner.user.id }]);
    const shared = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '2', memberId: member.user.id },
    });
    expect(shared.statusCode).toBe(200);
    // The sharer's balance went down: only the member is told.
    expect(heard.at(-1)).toEqual({ teamId: owner.user.team_id, userId: member.user.id });
    expect(heard).toHaveLength(2);
  });
});
