import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-bus.ts';
import { signData } from '../../src/modules/billing/checkout/liqpay.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { decode, expectLedgerBalanced, form, sandboxKeys } from '../support/billing.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

describe.each(databases)('balance, top-up and the payment callback on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterEach(() => expectLedgerBalanced(t));
  afterAll(() => t?.close());

  const balance = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/balance', token })).json() as { balance: number };
  const ledgerRows = async () =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from transactions`.execute(t.app.services.database.db)).rows[0].n,
    );

  it('refuses amounts that are not positive decimals with up to 2 decimals, translated', async () => {
    const owner = await signupVerified(t);
    for (const amount of ['1e3', '-5', '0.001', '12,34', 'NaN', '0', 0, -5, '']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/balance/topup',
        token: owner.token,
        payload: { amount },
      });
      expect(res.statusCode, String(amount)).toBe(422);
      expect(res.json().errors.amount[0].code).toBe('amount_invalid');
    }
    const foreign = await t.request({
      method: 'POST',
      url: '/api/balance/topup',
      token: owner.token,
      payload: { amount: '5', redirect_url: 'https://evil.example/steal' },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.redirect_url[0].code).toBe('redirect_url_invalid');
  });

  it('answers a signed LiqPay checkout for a top-up and credits it once the sandbox page pays', async () => {
    const owner = await signupVerified(t);
    const heard: EventEnvelope[] = [];
    const stop = t.app.services.bus.subscribe((e) => heard.push(e));
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/topup',
      token: owner.token,
      payload: { amount: '12.34', redirect_url: '/profile/transactions?done=1' },
    });
    expect(res.statusCode).toBe(200);
    const checkout = res.json();
    expect(checkout.checkout_url).toBe('http://herald.test/checkout/sandbox');
    const keys = await sandboxKeys(t);
    expect(checkout.signature).toBe(signData(keys.privateKey, checkout.data));
    expect(decode(checkout.data)).toMatchObject({
      version: 3,
      public_key: keys.publicKey,
      action: 'pay',
      amount: '12.34',
      currency: 'UAH',
      order_id: checkout.order_id,
      result_url: `http://herald.test/profile/transactions?done=1&payment_order=${checkout.order_id}`,
      server_url: 'http://herald.test/api/balance/callback',
      sandbox: '1',
    });

    // The browser posts the form to the checkout page, as it would to LiqPay.
    const pageRes = await t.request({
      method: 'POST',
      url: '/checkout/sandbox',
      ...form({ data: checkout.data, signature: checkout.signature }),
    });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain(checkout.order_id);
    expect(pageRes.body).toContain('12.34 UAH');
    expect(pageRes.body).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(pageRes.body).toMatch(/<button[^>]*>Decline<\/button>/);
    const tampered = await t.request({
      method: 'POST',
      url: '/checkout/sandbox',
      ...form({ data: checkout.data, signature: 'AAAA' }),
    });
    expect(tampered.statusCode).toBe(400);

    expect((await balance(owner.token)).balance).toBe(0);
    const paid = await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data: checkout.data, signature: checkout.signature, decision: 'pay' }),
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(
      `http://herald.test/profile/transactions?done=1&payment_order=${checkout.order_id}`,
    );
    expect((await balance(owner.token)).balance).toBe(1234);
    await waitUntil('BalanceChanged', () =>
      heard.some(
        (e) => e.event.type === 'BalanceChanged' && 'userId' in e.audience && e.audience.userId === owner.user.id,
      ),
    );
    stop();
    const event = heard.find((e) => e.event.type === 'BalanceChanged');
    expect(event?.event.payload).toMatchObject({ balance: 1234, balance_currency: 'UAH' });

    // Paying the same order again (a second click, a replayed callback) credits nothing more.
    await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data: checkout.data, signature: checkout.signature, decision: 'pay' }),
    });
    expect((await balance(owner.token)).balance).toBe(1234);

    const list = await t.request({ method: 'GET', url: '/api/balance/transactions', token: owner.token });
    expect(list.json().data).toEqual([
      expect.objectContaining({ type: 'top_up', description: 'top_up', amount: 1234, currency: 'UAH', count: 1 }),
    ]);
    expect(list.json().meta).toMatchObject({ total: 1, current_page: 1 });
    const total = await t.request({ method: 'GET', url: '/api/balance/transactions/total', token: owner.token });
    expect(total.json()).toEqual({ total: 1, credited: 1234, debited: 0 });
    const me = await t.request({ method: 'GET', url: '/api/user', token: owner.token });
    expect(me.json()).toMatchObject({
      balance: 1234,
      balance_currency: 'UAH',
      free_sms: { remaining: null, total: null },
    });
  });

  it('a declined payment changes no balance and leaves the order declined', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/topup',
      token: owner.token,
      payload: { amount: 50 },
    });
    const { data, signature, order_id } = res.json();
    const declined = await t.request({
      method: 'POST',
      url: '/checkout/sandbox/complete',
      ...form({ data, signature, decision: 'decline' }),
    });
    expect(declined.statusCode).toBe(303);
    expect((await balance(owner.token)).balance).toBe(0);
    const order = await sql<{ status: string }>`select status from payment_orders where order_id = ${order_id}`.execute(
      t.app.services.database.db,
    );
    expect(order.rows[0].status).toBe('declined');
  });

  it('rejects forged, re-signed, tampered and foreign callbacks and changes nothing', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/topup',
      token: owner.token,
      payload: { amount: '20' },
    });
    const { data } = res.json();
    const keys = await sandboxKeys(t);
    const params = decode(data);
    const paidWith = (over: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...params, status: 'sandbox', payment_id: 1, ...over })).toString('base64');
    const before = await ledgerRows();

    const attempts: Array<[string, { data: string; signature: string }]> = [
      ['forged signature', { data: paidWith({}), signature: 'bm90IGEgc2lnbmF0dXJlIGF0IGFsbA==' }],
      ['signed with another private key', { data: paidWith({}), signature: signData('another-key', paidWith({})) }],
      [
        'amount tampered after signing',
        { data: paidWith({ amount: '2000.00' }), signature: signData(keys.privateKey, paidWith({})) },
      ],
      [
        'amount changed and re-signed',
        {
          data: paidWith({ amount: '2000.00' }),
          signature: signData(keys.privateKey, paidWith({ amount: '2000.00' })),
        },
      ],
      [
        'currency changed',
        { data: paidWith({ currency: 'USD' }), signature: signData(keys.privateKey, paidWith({ currency: 'USD' })) },
      ],
      [
        'another public key',
        {
          data: paidWith({ public_key: 'i000' }),
          signature: signData(keys.privateKey, paidWith({ public_key: 'i000' })),
        },
      ],
      [
        'unknown order',
        { data: paidWith({ order_id: 'nope' }), signature: signData(keys.privateKey, paidWith({ order_id: 'nope' })) },
      ],
      ['not JSON', { data: 'bm90IGpzb24=', signature: signData(keys.privateKey, 'bm90IGpzb24=') }],
    ];
    for (const [why, body] of attempts) {
      const answer = await t.request({ method: 'POST', url: '/api/balance/callback', ...form(body) });
      expect(answer.statusCode, why).toBe(403);
      expect(answer.json(), why).toMatchObject({
        code: 'payment_rejected',
        message: 'The payment callback was rejected.',
      });
    }
    const json = await t.request({ method: 'POST', url: '/api/balance/callback', payload: { data: paidWith({}) } });
    expect(json.statusCode).toBe(422);
    expect((await balance(owner.token)).balance).toBe(0);
    expect(await ledgerRows()).toBe(before);

    // The genuine callback, then replayed: credited once.
    const genuine = { data: paidWith({}), signature: signData(keys.privateKey, paidWith({})) };
    const first = await t.request({ method: 'POST', url: '/api/balance/callback', ...form(genuine) });
    expect(first.json()).toEqual({ status: 'paid' });
    const replay = await t.request({ method: 'POST', url: '/api/balance/callback', ...form(genuine) });
    expect(replay.json()).toEqual({ status: 'already_settled' });
    expect((await balance(owner.token)).balance).toBe(2000);
  });

  it('credits once when the same callback arrives 20 times at once', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/topup',
      token: owner.token,
      payload: { amount: '7.50' },
    });
    const keys = await sandboxKeys(t);
    const data = Buffer.from(JSON.stringify({ ...decode(res.json().data), status: 'sandbox', payment_id: 9 })).toString(
      'base64',
    );
    const body = form({ data, signature: signData(keys.privateKey, data) });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.request({ method: 'POST', url: '/api/balance/callback', ...body })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json().status === 'paid')).toHaveLength(1);
    expect((await balance(owner.token)).balance).toBe(750);
    const credits = await sql<{
      n: number;
    }>`select count(*)::int as n from transactions where user_id = ${owner.user.id}`.execute(
      t.app.services.database.db,
    );
    expect(credits.rows[0].n).toBe(1);
  });

  it('does not count a sandbox status as paid when LiqPay keys are configured', async () => {
    const live = await startTestApp(kind, {
      LIQPAY_PUBLIC_KEY: 'i_live_public',
      LIQPAY_PRIVATE_KEY: 'live_private_key',
    });
    try {
      const owner = await signupVerified(live);
      const res = await live.request({
        method: 'POST',
        url: '/api/balance/topup',
        token: owner.token,
        payload: { amount: '10' },
      });
      expect(res.json().checkout_url).toBe('https://www.liqpay.ua/api/3/checkout');
      const params = decode(res.json().data);
      expect(params.sandbox).toBeUndefined();
      const send = (status: string) => {
        const data = Buffer.from(JSON.stringify({ ...params, status })).toString('base64');
        return live.request({
          method: 'POST',
          url: '/api/balance/callback',
          ...form({ data, signature: signData('live_private_key', data) }),
        });
      };
      expect((await send('sandbox')).json()).toEqual({ status: 'pending' });
      expect((await live.request({ method: 'GET', url: '/api/balance', token: owner.token })).json().balance).toBe(0);
      expect(
        (
          await live.request({
            method: 'POST',
            url: '/checkout/sandbox/complete',
            ...form({ data: 'x', signature: 'y' }),
          })
        ).statusCode,
      ).toBe(404);
      expect((await send('success')).json()).toEqual({ status: 'paid' });
      expect((await live.request({ method: 'GET', url: '/api/balance', token: owner.token })).json().balance).toBe(
        1000,
      );
      await expectLedgerBalanced(live);
    } finally {
      await live.close();
    }
  });

  it('lets operators read their own balance and ledger but not top up, share or subscribe', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await t.request({ method: 'GET', url: '/api/balance', token: operator.token })).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: '/api/balance/transactions', token: operator.token })).statusCode,
    ).toBe(200);
    for (const [url, payload] of [
      ['/api/balance/topup', { amount: '5' }],
      ['/api/balance/share', { amount: '5', memberId: owner.user.id }],
      ['/api/balance/subscribe', { plan_id: 1 }],
    ] as const) {
      const res = await t.request({ method: 'POST', url, token: operator.token, payload });
      expect(res.statusCode, url).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: '/api/team', token: operator.token })).statusCode).toBe(403);
  });
});
