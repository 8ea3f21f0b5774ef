import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TBalance, TTransactionQuery } from '@herald/shared/billing/billing.schemas';
import { TRANSACTION_ORDERABLE } from '@herald/shared/billing/billing.schemas';
import { done, message } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { ChargeRequest, ChargesService } from './charges.service.ts';
import type { CheckoutService } from './checkout.service.ts';
import type { DebtsRepository } from './debts.repository.ts';
import type { OrdersRepository } from './orders.repository.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { PlansPort } from './plans-port.ts';

/** Balances, the ledger as users see it, shares and plan purchases. */
export function createBillingService(deps: {
  db: Kysely<DB>;
  bus: EventBus;
  ledger: LedgerRepository;
  charges: ChargesService;
  debts: DebtsRepository;
  orders: OrdersRepository;
  checkout: () => CheckoutService;
  plans: () => PlansPort | undefined;
  /** Hears `billing.balance_raised` after each credit commits. */
  events?: DomainEventsHub;
  /** The checkout is the sandbox: no real money moves (shown on the balance). */
  testPayments: boolean;
  /** `teamId:userId` of members auto-refilled since their last announce. */
  refilled?: Set<string>;
}) {
  const { db, bus, ledger, charges } = deps;

  async function freeSms(teamId: number, on: Kysely<DB> = db) {
    const allowance = await deps.plans()?.freeSms(on, teamId);
    if (!allowance) return { remaining: 0, total: 0 };
    if (allowance.total === null) return { remaining: null, total: null };
    const used = await ledger.freePartsSince(on, teamId, allowance.since);
    return { remaining: Math.max(0, allowance.total - used), total: allowance.total };
  }

  async function balanceOf(teamId: number, userId: number): Promise<TBalance> {
    const row = await ledger.balanceOf(db, teamId, userId);
    if (!row) throw new AppError('not_found');
    return {
      balance: row.balance,
      balance_currency: row.balance_currency,
      balance_auto_refill: row.balance_auto_refill,
      free_sms: await freeSms(teamId),
      debt: row.debt,
      test_payments: deps.testPayments,
    };
  }

  /** Refuses new paid work of a user who owes a reversed payment (decision 027): 402 `balance_debt`. */
  async function assertNoDebt(teamId: number, userId: number, on: Kysely<DB> = db) {
    const row = await ledger.balanceOf(on, teamId, userId);
    if (row && row.debt > 0) throw new AppError('balance_insufficient', message('balance_debt'));
  }

  /**
   * After the change has committed: `BalanceChanged` to each user's own tabs (a balance is
   * personal), and `FreeSmsChanged` to the whole team, whose plan's free SMS every member's
   * header counts. `raised`: the balances went up (a credit), heard as `billing.balance_raised`.
   */
  async function announce(teamId: number, userIds: number[], options: { raised?: boolean } = {}) {
    const free = await freeSms(teamId);
    for (const userId of new Set(userIds)) {
      const row = await ledger.balanceOf(db, teamId, userId);
      if (!row) continue;
      await bus.publish(
        { userId },
        {
          type: 'BalanceChanged',
          payload: { balance: row.balance, balance_currency: row.balance_currency, free_sms: free, debt: row.debt },
        },
      );
    }
    await bus.publish({ teamId }, { type: 'FreeSmsChanged', payload: { free_sms: free } });
    for (const userId of new Set(userIds)) {
      const refilled = deps.refilled?.delete(`${teamId}:${userId}`) ?? false;
      if (options.raised || refilled) await deps.events?.emit('billing.balance_raised', { teamId, userId });
    }
  }

  return {
    balanceOf,
    freeSms,
    announce,
    assertNoDebt,

    /** For `/api/user`: the signed-in user's balance, currency and free SMS. */
    async profileBalance(teamId: number, userId: number) {
      const b = await balanceOf(teamId, userId);
      return { balance: b.balance, balance_currency: b.balance_currency, free_sms: b.free_sms };
    },

    /** Charges inside the caller's transaction; the caller announces `balances` after its commit. */
    chargeMany: (tx: Kysely<DB>, teamId: number, requests: ChargeRequest[]) => charges.chargeMany(tx, teamId, requests),

    async charge(tx: Kysely<DB>, teamId: number, request: ChargeRequest) {
      const { results, balances } = await charges.chargeMany(tx, teamId, [request]);
      return { ...results[0], balance: balances.get(request.userId) ?? null };
    },

    /** A charge in a transaction of its own, announced when committed. */
    async chargeNow(teamId: number, requests: ChargeRequest[]) {
      const outcome = await db.transaction().execute((tx) => charges.chargeMany(tx, teamId, requests));
      await announce(teamId, [...outcome.balances.keys()]);
      return outcome;
    },

    async transactions(user: AuthUser, query: TTransactionQuery) {
      const order = query.order ?? (query.sorting ? [query.sorting] : undefined);
      const page = pageArgs({ page: query.page, limit: query.limit, order }, TRANSACTION_ORDERABLE, {
        field: 'created_at',
        dir: 'desc',
      });
      const me = await ledger.balanceOf(db, user.teamId, user.id);
      if (!me) throw new AppError('not_found');
      const since = (await deps.plans()?.historySince(db, user.teamId)) ?? null;
      const { rows, total } = await ledger.findPage(db, user.teamId, user.id, page, since);
      return {
        data: rows.map((r) => ({
          id: r.id,
          type: r.type,
          description: r.type,
          amount: r.amount,
          currency: me.balance_currency,
          name: r.name,
          count: r.count,
          free_parts: r.free_parts,
          debt_change: Number(r.debt_change),
          order_id: r.order_id,
          plan_id: typeof r.meta?.plan_id === 'number' ? r.meta.plan_id : null,
          reason: typeof r.meta?.reason === 'string' ? r.meta.reason : null,
          test: r.meta?.test === true,
          created_at: r.created_at.toISOString(),
        })),
        meta: pageMeta(query.page, query.limit, total),
      };
    },

    /** The user's own payment order (another's, or another team's: 404), as the return page shows it. */
    async order(user: AuthUser, orderId: string) {
      const row = await deps.orders.find(orderId);
      if (!row || row.team_id !== user.teamId || row.user_id !== user.id) throw new AppError('not_found');
      const me = await balanceOf(user.teamId, user.id);
      const bought = await db
        .selectFrom('transactions')
        .select('id')
        .where('user_id', '=', user.id)
        .where('idempotency_key', '=', `subscribe:${row.order_id}`)
        .executeTakeFirst();
      return {
        order_id: row.order_id,
        purpose: row.purpose,
        plan_id: row.plan_id,
        status: row.status,
        amount: row.amount,
        currency: row.currency,
        plan_bought: bought !== undefined,
        balance: me.balance,
        debt: me.debt,
        test_payments: deps.testPayments,
      };
    },

    async transactionTotals(user: AuthUser) {
      const since = (await deps.plans()?.historySince(db, user.teamId)) ?? null;
      return ledger.totals(db, user.teamId, user.id, since);
    },

    /** Owner or admin → a member of the same team: share_balance rows on both sides, one transaction. */
    async share(user: AuthUser, input: { amount: number; memberId: number; autoRefill: boolean }) {
      const member = await ledger.balanceOf(db, user.teamId, input.memberId);
      if (!member) throw new AppError('not_found', { code: 'member_not_found' });
      if (member.id === user.id) throw AppError.field('memberId', 'share_to_self');
      await assertNoDebt(user.teamId, user.id);
      const sharer = await ledger.balanceOf(db, user.teamId, user.id);
      if (!sharer) throw new AppError('not_found');
      const key = `share:${randomUUID()}`;
      const result = await db.transaction().execute(async (tx) => {
        // Both rows in id order: two shares crossing between the same users queue, not deadlock.
        await ledger.lockUsers(tx, user.teamId, [user.id, member.id]);
        const debit = await ledger.post(tx, user.teamId, user.id, [
          { type: 'share_balance', amount: -input.amount, key, name: member.name, meta: { member_id: member.id } },
        ]);
        if (!debit) return null;
        const credit = await ledger.credit(tx, user.teamId, member.id, [
          { type: 'share_balance', amount: input.amount, key, name: sharer.name, meta: { sharer_id: user.id } },
        ]);
        await ledger.setAutoRefill(tx, user.teamId, member.id, input.autoRefill, user.id);
        // A member who owes pays it first from what they were given.
        const paid = await deps.debts.payDebt(tx, user.teamId, member.id, key);
        return { balance: debit.balance, memberBalance: (credit?.balance ?? 0) - paid };
      });
      if (!result) throw AppError.field('amount', 'balance_not_enough');
      await announce(user.teamId, [user.id]);
      await announce(user.teamId, [member.id], { raised: true });
      return {
        ...done('share_balance_successful'),
        balance: result.balance,
        balance_member: { id: member.id, balance: result.memberBalance, balance_auto_refill: input.autoRefill },
      };
    },

    /**
     * Buys a plan: from the balance when it covers the price (the payment and the plan in one
     * transaction), otherwise through the checkout, applied when the order's callback arrives.
     */
    async subscribe(user: AuthUser, planId: number, redirectUrl?: string) {
      const plans = deps.plans();
      const plan = plans ? await plans.plan(planId) : null;
      if (!plans || !plan) throw new AppError('not_found', { code: 'plan_not_found' });
      if (!plan.purchasable || plan.price === null || plan.price <= 0)
        throw AppError.field('plan_id', 'plan_not_purchasable');
      const price = plan.price;
      await assertNoDebt(user.teamId, user.id);
      // Purchases of a team queue on its lock, and the plan in force cannot be bought again: of a
      // double submit (or two admins at once) the first buys, the second is refused. The key names
      // the subscription the purchase follows, so a retried statement cannot charge twice either.
      const paid = await db.transaction().execute(async (tx) => {
        await ledger.lockPurchase(tx, user.teamId);
        const current = await plans.current(tx, user.teamId);
        if (current.planInForce === plan.id) throw AppError.field('plan_id', 'plan_already_active');
        const key = `subscribe:${user.teamId}:${plan.id}:after:${current.latestId}`;
        const debit = await ledger.post(tx, user.teamId, user.id, [
          { type: 'subscribe_payment', amount: -price, key, name: plan.name, meta: { plan_id: plan.id } },
        ]);
        if (!debit) return null;
        if (debit.written.length === 0) throw new AppError('conflict');
        await plans.activate(tx, { teamId: user.teamId, planId: plan.id, userId: user.id });
        // The plan is bought: an order opened for it (a short balance earlier) may no longer be paid.
        await deps.orders.closeOpenSubscriptions(tx, user.teamId, plan.id);
        return debit.balance;
      });
      if (paid === null) {
        // The balance pays what it holds and the card the rest: the order is for the difference,
        // and its callback debits the whole price from the balance it has just topped up.
        const held = (await ledger.balanceOf(db, user.teamId, user.id))?.balance ?? 0;
        const byCard = Math.max(1, price - held);
        const checkout = await deps.checkout().subscriptionCheckout({
          teamId: user.teamId,
          userId: user.id,
          plan: { ...plan, price },
          amount: byCard,
          redirectUrl,
        });
        return { status: 'checkout' as const, ...checkout };
      }
      await announce(user.teamId, [user.id]);
      return {
        status: 'subscribed' as const,
        ...done('subscribed_to_plan'),
        balance: paid,
        active_subscriptions: await plans.activeSubscriptions(db, user.teamId),
      };
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
