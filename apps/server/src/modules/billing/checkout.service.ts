import type { Kysely } from 'kysely';
import { formatAmount, parseAmount, type TCurrency } from '@herald/shared/billing/billing.schemas';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { checkoutForm, decodeData, isDeclined, isPaid, isReversed, verifySignature } from './checkout/liqpay.ts';
import type { DebtsRepository } from './debts.repository.ts';
import { type CallbackOutcome, createSettlement, ORDER_TTL_MS } from './payment-settle.ts';
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
  readonly orderId: string | null;
  readonly providerStatus: string | null;
  constructor(reason: string, orderId: string | null = null, providerStatus: string | null = null) {
    super('payment_rejected');
    this.reason = reason;
    this.orderId = orderId;
    this.providerStatus = providerStatus;
  }
}

export type { CallbackOutcome };

/** A verified callback's outcome, with what the log names: the order and the provider's status. */
export interface CallbackAnswer {
  outcome: CallbackOutcome;
  orderId: string;
  providerStatus: string;
}

const withOrder = (url: string, orderId: string) => {
  const u = new URL(url);
  u.searchParams.set('payment_order', orderId);
  return u.toString();
};

const expiresAt = (order: { created_at: Date }) => new Date(order.created_at.getTime() + ORDER_TTL_MS);

/**
 * The hosted checkout: an order is written, then its signed form is answered; the balance is
 * credited only from a verified server callback, once per order however often it arrives.
 */
export function createCheckoutService(deps: {
  db: Kysely<DB>;
  ledger: LedgerRepository;
  orders: OrdersRepository;
  debts: DebtsRepository;
  plans: () => PlansPort | undefined;
  settings: CheckoutSettings;
  /** Tells the users whose balance changed, after the commit. */
  announce: (teamId: number, userIds: number[], options?: { raised?: boolean }) => Promise<void>;
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
      // The browser comes back naming its order, so the app can say how the payment went.
      result_url: withOrder(redirect, order.order_id),
      server_url: `${settings.appUrl}/api/balance/callback`,
      // LiqPay's own deadline (UTC, `YYYY-MM-DD HH:mm:ss`): the hosted checkout stops taking it.
      expired_date: expiresAt(order).toISOString().slice(0, 19).replace('T', ' '),
    };
    if (k.sandbox) params.sandbox = '1';
    return {
      ...checkoutForm(k.privateKey, params),
      checkout_url: k.checkoutUrl,
      order_id: order.order_id,
      amount: order.amount,
      currency: order.currency,
      expires_at: expiresAt(order).toISOString(),
      test_payments: k.sandbox,
    };
  }

  const reject = (why: string, orderId: string | null = null, status: string | null = null) =>
    new PaymentRejected(why, orderId, status);
  const settle = createSettlement({ db, ledger, debts: deps.debts, orders, plans: deps.plans });

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
      /** What the card pays: the price less what the balance holds. */
      amount: number;
      redirectUrl?: string;
    }) {
      const redirect = resultUrl(input.redirectUrl);
      const wanted = {
        teamId: input.teamId,
        planId: input.plan.id,
        amount: input.amount,
        currency: input.plan.currency,
      };
      // Under the team's purchase lock: of a double submit (or two admins at once) the second
      // finds the first's order and opens the same checkout, so the plan cannot be paid twice.
      const order = await db.transaction().execute(async (tx) => {
        await ledger.lockPurchase(tx, input.teamId);
        // An order still payable for at least half its time; an older one is left to expire.
        const since = new Date(Date.now() - ORDER_TTL_MS / 2);
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
     * exists, and its amount and currency are the order's. Then `settle` applies it under the
     * order's lock, so of any number of identical or racing callbacks one credits (or reverses).
     */
    async applyCallback(data: string, signature: string): Promise<CallbackAnswer> {
      const k = await keys();
      if (!verifySignature(k.privateKey, data, signature)) throw reject('signature');
      const payload = decodeData(data);
      if (!payload) throw reject('data');
      if (payload.public_key !== k.publicKey) throw reject('public_key');
      const orderId = typeof payload.order_id === 'string' ? payload.order_id : '';
      const status = String(payload.status ?? '');
      const order = orderId ? await orders.find(orderId) : undefined;
      if (!order) throw reject('order', orderId, status);
      // Decimal text to minor units, never through a float multiplication.
      if (parseAmount(payload.amount) !== order.amount || payload.currency !== order.currency)
        throw reject('amount', orderId, status);
      const { outcome, raised } = await settle(
        order,
        { paid: isPaid(status, k.sandbox), declined: isDeclined(status), reversed: isReversed(status), text: status },
        payload.payment_id ? String(payload.payment_id) : null,
      );
      if (outcome === 'paid' || outcome === 'credited' || outcome === 'reversed')
        await deps.announce(order.team_id, [order.user_id], { raised });
      return { outcome, orderId, providerStatus: status };
    },
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
