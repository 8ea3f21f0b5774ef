import { describe, expect, it } from 'vitest';
import { describeTransaction } from './transaction-text.ts';

const base = { amount: 0, name: null, order_id: null, plan_id: null, reason: null, test: false, debt_change: 0 };
const plans = (id: number) => (id === 2 ? 'Стартовий' : null);

describe('billing history in words', () => {
  it('says a top-up by card with its order, and a plan by its name in the chosen language', () => {
    expect(describeTransaction({ ...base, type: 'top_up', amount: 100, order_id: 'h1' }, plans)).toEqual({
      key: 'history.topUpCard',
      values: {},
      detail: { key: 'history.order', values: { order: 'h1' } },
    });
    const plan = describeTransaction({ ...base, type: 'subscribe_payment', name: 'Starter Pack', plan_id: 2 }, plans);
    expect(plan).toMatchObject({ key: 'history.plan', values: { plan: 'Стартовий' }, detail: null });
    // A plan the catalogue no longer has keeps the name it was bought under.
    expect(
      describeTransaction({ ...base, type: 'subscribe_payment', name: 'Old', plan_id: 9, order_id: 'h2' }, plans),
    ).toMatchObject({ key: 'history.planByCard', values: { plan: 'Old' } });
  });

  it('labels only the test tab’s SMS as a test, and says which way a share went', () => {
    expect(describeTransaction({ ...base, type: 'sent_message', name: 'Test', test: true }, plans).key).toBe(
      'history.testSms',
    );
    expect(describeTransaction({ ...base, type: 'sent_message', name: 'Test' }, plans).key).toBe('history.campaignSms');
    expect(describeTransaction({ ...base, type: 'share_balance', amount: -5, name: 'Ira' }, plans)).toMatchObject({
      key: 'history.shareTo',
      values: { name: 'Ira' },
    });
    expect(describeTransaction({ ...base, type: 'auto_share_balance', amount: 5, name: 'Ola' }, plans).key).toBe(
      'history.autoRefillFrom',
    );
  });

  it('says refunds with their reason, reversals with their order, and debts paid', () => {
    expect(describeTransaction({ ...base, type: 'refund', reason: 'expired' }, plans).detail?.key).toBe(
      'history.refundReasons.expired',
    );
    expect(describeTransaction({ ...base, type: 'refund', reason: 'something_new' }, plans).detail).toBeNull();
    expect(describeTransaction({ ...base, type: 'payment_reversed', order_id: 'h3' }, plans)).toMatchObject({
      key: 'history.reversed',
      detail: { values: { order: 'h3' } },
    });
    expect(describeTransaction({ ...base, type: 'debt_payment' }, plans).key).toBe('history.debtPaid');
  });
});
