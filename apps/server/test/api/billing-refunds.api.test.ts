import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeRequest } from '@herald/shared/billing/charges';
import { createChargesService } from '../../src/modules/billing/charges.service.ts';
import { createDebtsRepository } from '../../src/modules/billing/debts.repository.ts';
import { createLedgerRepository } from '../../src/modules/billing/ledger.repository.ts';
import { createRefunds } from '../../src/modules/billing/refunds.service.ts';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, signedCallback, topUpThroughSandbox } from '../support/billing.ts';
import { createGateway } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('refunds and reversed payments on %s', (kind) => {
  let t: TestApp;
  // The free SMS a test's team gets from its plan (plans are another module's; here, a fixed figure).
  let freeTotal = 0;
  const freeSms = async () => (freeTotal > 0 ? { total: freeTotal, since: new Date(Date.now() - 3600_000) } : null);
  const ledger = createLedgerRepository();
  const charges = createChargesService({ ledger, freeSms });
  const refund = createRefunds({ ledger, debts: createDebtsRepository(), freeSms });
  beforeAll(async () => {
    t = await startTestApp(kind);
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
  const refundOf = (teamId: number, userId: number, chargeKey: string) =>
    db()
      .transaction()
      .execute((tx) => refund(tx, teamId, { userId, chargeKey, reason: 'not_sent' }));
  const rows = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/balance/transactions?order[0]=id,asc', token })).json().data as Array<{
      type: string;
      amount: number;
      free_parts: number;
      debt_change: number;
      reason: string | null;
    }>;

  it('gives a charge back once, however often and however concurrently it is asked', async () => {
    const owner = await signupVerified(t);
    const { id: userId, team_id: teamId } = owner.user;
    await topUpThroughSandbox(t, owner.token, '1.00');
    await charge(teamId, [{ userId, code: 'sent_single_message', parts: 2, pricePerPart: 15, key: 'msg-1' }]);
    expect((await balance(owner.token)).balance).toBe(70);

    const answers = await Promise.all(Array.from({ length: 8 }, () => refundOf(teamId, userId, 'msg-1')));
    expect(answers.filter((a) => a.status === 'refunded')).toEqual([{ status: 'refunded', amount: 30, freeSms: 0 }]);
    expect(answers.filter((a) => a.status === 'already_refunded')).toHaveLength(7);
    expect(await refundOf(teamId, userId, 'msg-1')).toEqual({ status: 'already_refunded', amount: 0, freeSms: 0 });
    expect((await balance(owner.token)).balance).toBe(100);
    const refunds = (await rows(owner.token)).filter((r) => r.type === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ amount: 30, reason: 'not_sent' })]);
    // The charge's key stays spent: replaying the charge does not take the money again.
    const replay = await charge(teamId, [
      { userId, code: 'sent_single_message', parts: 2, pricePerPart: 15, key: 'msg-1' },
    ]);
    expect(replay.results[0]).toMatchObject({ status: 'charged', replayed: true });
    expect((await balance(owner.token)).balance).toBe(100);
  });

  it('gives back the free SMS a charge took, and answers nothing_to_refund for what is not a charge', async () => {
    const owner = await signupVerified(t);
    const { id: userId, team_id: teamId } = owner.user;
    freeTotal = 3;
    const batch = (key: string): ChargeRequest => ({ userId, code: 'sent_message', parts: 2, pricePerPart: 10, key });
    await topUpThroughSandbox(t, owner.token, '1.00');
    const first = await charge(teamId, [batch('c-1'), batch('c-2')]);
    // 3 free parts: c-1 takes 2 free, c-2 one free and one paid (10).
    expect(first.results.map((r) => [r.freeParts, r.amount])).toEqual([
      [2, 0],
      [1, 10],
    ]);
    expect(await refundOf(teamId, userId, 'c-1')).toEqual({ status: 'refunded', amount: 0, freeSms: 2 });
    expect(await refundOf(teamId, userId, 'c-2')).toEqual({ status: 'refunded', amount: 10, freeSms: 1 });
    // All three free parts are the team's again: the next message of 3 parts is free.
    const next = await charge(teamId, [{ userId, code: 'sent_message', parts: 3, pricePerPart: 10, key: 'c-3' }]);
    expect(next.results[0]).toMatchObject({ status: 'charged', freeParts: 3, amount: 0 });
    expect(await refundOf(teamId, userId, 'no-such-charge')).toMatchObject({ status: 'nothing_to_refund' });
    // A top-up's key is not a charge.
    const order = await sql<{ k: string }>`select idempotency_key as k from transactions
      where user_id = ${userId} and type = 'top_up'`.execute(db());
    expect(await refundOf(teamId, userId, order.rows[0].k)).toMatchObject({ status: 'nothing_to_refund' });
    expect((await balance(owner.token)).balance).toBe(100);
  });

  it('a reversed payment takes the money back; what was spent becomes a debt, paid first by the next top-ups', async () => {
    const owner = await signupVerified(t);
    const { id: userId, team_id: teamId } = owner.user;
    const paid = await topUpThroughSandbox(t, owner.token, '100.00');
    await charge(teamId, [{ userId, code: 'lookup', amount: 7_000, key: 'spent' }]);

    const reversed = await t.request({
      method: 'POST',
      url: '/api/balance/callback',
      ...(await signedCallback(t, paid, 'reversed')),
    });
    expect(reversed.json()).toEqual({ status: 'reversed' });
    expect(await balance(owner.token)).toMatchObject({ balance: 0, debt: 7_000 });
    const order = await sql<{ status: string; provider_status: string; at: Date | null }>`
      select status, provider_status, provider_status_at as at from payment_orders where order_id = ${paid.order_id}`.execute(
      db(),
    );
    expect(order.rows[0]).toMatchObject({ status: 'reversed', provider_status: 'reversed' });
    expect(order.rows[0].at).not.toBeNull();
    // A replayed reversal takes nothing more.
    const again = await t.request({
      method: 'POST',
      url: '/api/balance/callback',
      ...(await signedCallback(t, paid, 'reversed')),
    });
    expect(again.json()).toEqual({ status: 'already_settled' });
    expect(await balance(owner.token)).toMatchObject({ balance: 0, debt: 7_000 });

    // Owing, nothing is charged (free SMS neither), shared or bought: a distinct, translated refusal.
    freeTotal = 10;
    const refused = await charge(teamId, [{ userId, code: 'sent_message', parts: 1, pricePerPart: 0, key: 'owing' }]);
    expect(refused.results[0].status).toBe('debt');
    const buy = await t.request({
      method: 'POST',
      url: '/api/balance/subscribe',
      token: owner.token,
      payload: { plan_id: 2 },
    });
    expect(buy.statusCode).toBe(422);
    expect(buy.json()).toMatchObject({ code: 'balance_insufficient', detail: { code: 'balance_debt' } });
    const gateway = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim',
      credentials: { from: 'Herald' },
    });
    const sms = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { phone: '+380671234567', message: 'Owing', gateway_id: gateway.id },
    });
    expect(sms.statusCode).toBe(422);
    expect(sms.json()).toMatchObject({ code: 'balance_insufficient', detail: { code: 'balance_debt' } });

    await topUpThroughSandbox(t, owner.token, '50.00');
    expect(await balance(owner.token)).toMatchObject({ balance: 0, debt: 2_000 });
    await topUpThroughSandbox(t, owner.token, '30.00');
    expect(await balance(owner.token)).toMatchObject({ balance: 1_000, debt: 0 });
    expect((await rows(owner.token)).map((r) => [r.type, r.amount, r.debt_change])).toEqual([
      ['top_up', 10_000, 0],
      ['lookup', -7_000, 0],
      ['payment_reversed', -3_000, 7_000],
      ['top_up', 5_000, 0],
      ['debt_payment', -5_000, -5_000],
      ['top_up', 3_000, 0],
      ['debt_payment', -2_000, -2_000],
    ]);
    const after = await charge(teamId, [{ userId, code: 'lookup', amount: 100, key: 'after' }]);
    expect(after.results[0].status).toBe('charged');
  });

  it('a reversal of an order never paid is a decline, and takes nothing', async () => {
    const owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '10.00');
    const open = (
      await t.request({ method: 'POST', url: '/api/balance/topup', token: owner.token, payload: { amount: '5' } })
    ).json();
    const res = await t.request({
      method: 'POST',
      url: '/api/balance/callback',
      ...(await signedCallback(t, open, 'reversed')),
    });
    expect(res.json()).toEqual({ status: 'declined' });
    expect(await balance(owner.token)).toMatchObject({ balance: 1_000, debt: 0 });
  });
});
