import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { DebtsRepository } from './debts.repository.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { OrdersRepository } from './orders.repository.ts';
import type { PlansPort } from './plans-port.ts';

/**
 * How long an order may be paid (decision 016): the checkout is opened with this deadline, and a
 * plan order paid after it credits the balance and buys nothing, as a closed one does.
 */
export const ORDER_TTL_MS = 30 * 60 * 1000;

/**
 * `paid`: credited (and the plan bought); `credited`: a plan order closed, expired or overtaken,
 * its money credited to the balance and no plan bought; `reversed`: a paid order taken back.
 */
export type CallbackOutcome = 'paid' | 'credited' | 'already_settled' | 'declined' | 'pending' | 'reversed';

type Order = NonNullable<Awaited<ReturnType<OrdersRepository['find']>>>;

/**
 * A verified callback's effect on its order, in one transaction under the order's lock (decision
 * 027): the provider's status and its time are recorded whatever it says; a payment credits once;
 * a `reversed` after it takes the money back once, as far as the balance holds it and the rest as
 * a debt. Answers the outcome and whose balance went up (to announce after the commit).
 */
export function createSettlement(deps: {
  db: Kysely<DB>;
  ledger: LedgerRepository;
  debts: DebtsRepository;
  orders: OrdersRepository;
  plans: () => PlansPort | undefined;
}) {
  const { db, ledger, debts, orders } = deps;

  /** Credits a paid order; buys its plan when the order still stands. */
  async function pay(tx: Kysely<DB>, row: Order, paymentId: string | null): Promise<CallbackOutcome> {
    await orders.setStatus(tx, row.order_id, 'paid', paymentId);
    const key = `order:${row.order_id}`;
    await ledger.credit(tx, row.team_id, row.user_id, [
      { type: 'top_up', amount: row.amount, key, name: row.order_id, orderId: row.order_id },
    ]);
    const plans = deps.plans();
    if (row.purpose !== 'subscription' || row.plan_id === null || !plans) {
      await debts.payDebt(tx, row.team_id, row.user_id, key, row.order_id);
      return 'paid';
    }
    // Bought meanwhile (from the balance, which closed this order, or by another order), or paid
    // after the checkout's deadline: the money stays on the balance, no second period is bought.
    const current = await plans.current(tx, row.team_id);
    const expired = row.created_at.getTime() + ORDER_TTL_MS < Date.now();
    if (row.status === 'closed' || expired || current.planInForce === row.plan_id) {
      await debts.payDebt(tx, row.team_id, row.user_id, key, row.order_id);
      return 'credited';
    }
    const plan = await plans.plan(row.plan_id);
    // The order paid what the balance lacked; the plan's price comes from the balance now.
    const price = plan?.price ?? row.amount;
    const debit = await ledger.post(tx, row.team_id, row.user_id, [
      {
        type: 'subscribe_payment',
        amount: -price,
        key: `subscribe:${row.order_id}`,
        name: plan?.name ?? null,
        orderId: row.order_id,
        meta: { plan_id: row.plan_id },
      },
    ]);
    // Refused for a debt, or because what the balance held meanwhile went elsewhere: the money
    // stays on the balance (a debt paid from it first) and no plan is bought.
    if (!debit) {
      await debts.payDebt(tx, row.team_id, row.user_id, key, row.order_id);
      return 'credited';
    }
    await plans.activate(tx, { teamId: row.team_id, planId: row.plan_id, userId: row.user_id });
    await orders.closeOpenSubscriptions(tx, row.team_id, row.plan_id, row.order_id);
    return 'paid';
  }

  return async function settle(
    order: Order,
    status: { paid: boolean; declined: boolean; reversed: boolean; text: string },
    paymentId: string | null,
  ): Promise<{ outcome: CallbackOutcome; raised: boolean }> {
    return db.transaction().execute(async (tx) => {
      // A plan order queues on the team's purchase lock before its own, in the order a purchase
      // from the balance takes them (it closes the open orders under that lock).
      if (order.purpose === 'subscription') await ledger.lockPurchase(tx, order.team_id);
      const row = await orders.lock(tx, order.order_id);
      if (!row) return { outcome: 'pending', raised: false };
      await orders.recordStatus(tx, row.order_id, status.text);
      if (status.reversed) {
        if (row.status !== 'paid') {
          await orders.markDeclined(row.order_id, status.text, tx);
          return { outcome: row.status === 'reversed' ? 'already_settled' : 'declined', raised: false };
        }
        await orders.setStatus(tx, row.order_id, 'reversed');
        await debts.reverse(tx, {
          teamId: row.team_id,
          userId: row.user_id,
          orderId: row.order_id,
          amount: row.amount,
        });
        return { outcome: 'reversed', raised: false };
      }
      if (status.declined) {
        await orders.markDeclined(row.order_id, status.text, tx);
        return { outcome: 'declined', raised: false };
      }
      if (!status.paid) return { outcome: 'pending', raised: false };
      if (row.status === 'paid' || row.status === 'reversed') return { outcome: 'already_settled', raised: false };
      return { outcome: await pay(tx, row, paymentId), raised: true };
    });
  };
}
