import type { Kysely } from 'kysely';
import { formatAmount, parseAmount, type TCurrency } from '@herald/shared/billing/billing.schemas';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { checkoutForm, decodeData, isDeclined, isPaid, verifySignature } from './checkout/liqpay.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { OrdersRepository } from './orders.repository.ts';
import type { PlansPort } from './plans-port.ts';

export interface CheckoutSettings {
  appUrl: string;
  /** LiqPay's keys, or none: the app's own sandbox checkout with keys from the database. */
  liqpay?: { publicKey: string; privateKey: string; checkoutUrl: string; sandbox: boolean };
}

/** A refused payment callback; `reason` (which check failed) goes to the log, never to the caller. */
export class PaymentRejected extends AppError {
  readonly reason: string;
  constructor(reason: string) {
    super('payment_rejected');
    this.reason = reason;
  }
}

export type CallbackOutcome = 'paid' | 'already_settled' | 'declined' | 'pending';

/**
 * How long an unpaid plan order is opened again instead of a new one: a checkout left open for
 * longer is an abandoned one, and the next purchase starts afresh.
 */
const OPEN_ORDER_REUSE_MS = 30 * 60 * 1000;

/**
 * The hosted checkout: an order is written, then its signed form is answered; the balance is
 * credited only from a verified server callback, once per order however often it arrives.
 */
export function createCheckoutService(deps: {
  db: Kysely<DB>;
  ledger: LedgerRepository;
  orders: OrdersRepository;
  plans: () => PlansPort | undefined;
  settings: CheckoutSettings;
  /** Tells the users whose balance changed, after the commit. */
  announce: (teamId: number, userIds: number[]) => Promise<void>;
}) {
  const { db, ledger, orders, settings } = deps;
  let sandboxKeys: Promise<{ publicKey: string; privateKey: string }> | undefined;

  /** The keys, the checkout URL, and whether a `sandbox` status counts as paid. */
  async function keys() {
    if (settings.liqpay) return settings.liqpay;
    sandboxKeys ??= orders.sandboxKeys();
    const k = await sandboxKeys.catch((error) => {
      sandboxKeys = undefined;
      throw error;
    });
    return { ...k, checkoutUrl: `${settings.appUrl}/checkout/sandbox`, sandbox: true };
  }

  /** Where the checkout returns the browser: a page of this app (an open redirect otherwise). */
  function resultUrl(redirectUrl: string | undefined): string {
    const fallback = `${settings.appUrl}/profile/transactions`;
    if (!redirectUrl) return fallback;
    try {
      const url = new URL(redirectUrl, settings.appUrl);
      if (url.origin !== new URL(settings.appUrl).origin) throw new Error('foreign');
      return url.toString();
    } catch {
      throw AppError.field('redirect_url', 'redirect_url_invalid');
    }
  }

  async function open(order: Awaited<ReturnType<OrdersRepository['create']>>, description: string, redirect: string) {
    const k = await keys();
    const params: Record<string, unknown> = {
      version: 3,
      public_key: k.publicKey,
      action: 'pay',
      amount: formatAmount(order.amount),
      currency: order.currency,
      description,
      order_id: order.order_id,
      result_url: redirect,
      server_url: `${settings.appUrl}/api/balance/callback`,
    };
    if (k.sandbox) params.sandbox = '1';
    return {
      ...checkoutForm(k.privateKey, params),
      checkout_url: k.checkoutUrl,
      order_id: order.order_id,
      amount: order.amount,
      currency: order.currency,
    };
  }

  const reject = (why: string) => new PaymentRejected(why);

  return {
    keys,

    async topUp(input: { teamId: number; userId: number; amount: number; currency: TCurrency; redirectUrl?: string }) {
      const redirect = resultUrl(input.redirectUrl);
      const order = await orders.create({ ...input, purpose: 'top_up', planId: null });
      return open(order, `Herald balance top-up ${formatAmount(order.amount)} ${order.currency}`, redirect);
    },

    async subscriptionCheckout(input: {
      teamId: number;
      userId: number;
      plan: { id: number; name: string; price: number; currency: TCurrency };
      redirectUrl?: string;
    }) {
      const redirect = resultUrl(input.redirectUrl);
      const wanted = {
        teamId: input.teamId,
        planId: input.plan.id,
        amount: input.plan.price,
        currency: input.plan.currency,
      };
      // Under the team's purchase lock: of a double submit (or two admins at once) the second
      // finds the first's order and opens the same checkout, so the plan cannot be paid twice.
      const order = await db.transaction().execute(async (tx) => {
        await ledger.lockPurchase(tx, input.teamId);
        const since = new Date(Date.now() - OPEN_ORDER_REUSE_MS);
        return (
          (await orders.openSubscription(tx, { ...wanted, since })) ??
          orders.create({ ...wanted, userId: input.userId, purpose: 'subscription' }, tx)
        );
      });
      return open(order, `Herald plan ${input.plan.name}`, redirect);
    },

    /**
     * A payment callback (`data`, `signature`). Rejected, changing nothing, unless the signature
     * recomputed with our private key matches (constant time), the public key is ours, the order
     * exists, and its amount and currency are the order's. Paid → the order moves to paid and the
     * balance is credited in one transaction; the conditional status change lets one callback of
     * any number through.
     */
    async applyCallback(data: string, signature: string): Promise<CallbackOutcome> {
      const k = await keys();
      if (!verifySignature(k.privateKey, data, signature)) throw reject('signature');
      const payload = decodeData(data);
      if (!payload) throw reject('data');
      if (payload.public_key !== k.publicKey) throw reject('public_key');
      const orderId = typeof payload.order_id === 'string' ? payload.order_id : '';
      const order = orderId ? await orders.find(orderId) : undefined;
      if (!order) throw reject('order');
      // Decimal text to minor units, never through a float multiplication.
      if (parseAmount(payload.amount) !== order.amount || payload.currency !== order.currency) throw reject('amount');
      const status = String(payload.status ?? '');
      if (isDeclined(status)) {
        await orders.markDeclined(order.order_id, status);
        return 'declined';
      }
      if (!isPaid(status, k.sandbox)) return 'pending';

      const plans = deps.plans();
      const paid = await db.transaction().execute(async (tx) => {
        const row = await orders.markPaid(
          tx,
          order.order_id,
          status,
          payload.payment_id ? String(payload.payment_id) : null,
        );
        if (!row) return false;
        const key = `order:${row.order_id}`;
        await ledger.credit(tx, row.team_id, row.user_id, [
          { type: 'top_up', amount: row.amount, key, name: row.order_id, orderId: row.order_id },
        ]);
        if (row.purpose === 'subscription' && row.plan_id !== null && plans) {
          const plan = await plans.plan(row.plan_id);
          const debit = await ledger.post(tx, row.team_id, row.user_id, [
            {
              type: 'subscribe_payment',
              amount: -row.amount,
              key: `subscribe:${row.order_id}`,
              name: plan?.name ?? null,
              orderId: row.order_id,
              meta: { plan_id: row.plan_id },
            },
          ]);
          // Just credited with the same amount in this transaction: it cannot be short.
          if (!debit) throw new Error(`order ${row.order_id}: the subscription payment did not fit the credit`);
          await plans.activate(tx, { teamId: row.team_id, planId: row.plan_id, userId: row.user_id });
        }
        return true;
      });
      if (!paid) return 'already_settled';
      await deps.announce(order.team_id, [order.user_id]);
      return 'paid';
    },
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
