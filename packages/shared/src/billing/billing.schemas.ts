import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { pageOf, ZOrder } from '../common/pagination.schemas.ts';
import { ZActiveSubscription } from '../plans/plans.schemas.ts';

/**
 * Money on the wire: every amount and balance the server ANSWERS is an integer in minor units
 * (kopiyky, cents) of `balance_currency`; the web formats it. What a person TYPES (a top-up or a
 * share) is sent as typed, a decimal of major units with up to 2 decimals, and parsed here.
 */
export const CURRENCIES = ['UAH', 'USD', 'EUR'] as const;
export const ZCurrency = z.enum(CURRENCIES);
export type TCurrency = z.infer<typeof ZCurrency>;
export const CURRENCY_SYMBOLS: Record<TCurrency, string> = { UAH: '₴', USD: '$', EUR: '€' };

/** The largest amount one top-up or share may move: 1,000,000.00. */
export const MAX_AMOUNT_MINOR = 100_000_000;

/**
 * `12.34` → 1234. Only digits with up to 2 decimals after a dot: `1e3`, `-5`, `0.001`, `12,34`,
 * `NaN`, `Infinity` are refused (null), and so are 0 and amounts above the maximum.
 */
export function parseAmount(input: unknown): number | null {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input;
  if (typeof text !== 'string') return null;
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return minor > 0 && minor <= MAX_AMOUNT_MINOR ? minor : null;
}

/** 1234 → `12.34`: how LiqPay and forms write an amount, from integers, never floats. */
export function formatAmount(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A typed amount: a string or a JSON number, answered as minor units or a 422 'amount_invalid'. */
export const ZAmountInput = z
  .union([z.string().max(32), z.number()], { message: messageText('amount_invalid') })
  .transform((v, ctx) => {
    const minor = parseAmount(v);
    if (minor === null) {
      ctx.addIssue({ code: 'custom', message: messageText('amount_invalid') });
      return z.NEVER;
    }
    return minor;
  });

/** What the ledger records: the spec's transaction codes, plus `lookup` for phone lookups. */
export const TRANSACTION_CODES = [
  'top_up',
  'subscribe_payment',
  'share_balance',
  'auto_share_balance',
  'sent_single_message',
  'sent_message',
  'lookup',
  // A charge given back (a message that ended without a send), a paid order the provider took
  // back, and a debt paid from a credit (decision 027).
  'refund',
  'payment_reversed',
  'debt_payment',
] as const;
export const ZTransactionCode = z.enum(TRANSACTION_CODES);
export type TTransactionCode = z.infer<typeof ZTransactionCode>;

/** One ledger row of the signed-in user (spec section 3 "Transaction"). */
export const ZTransaction = z.object({
  id: z.number(),
  /** The code (top_up, sent_message, …); `description` repeats it for the spec's column. */
  type: ZTransactionCode,
  description: ZTransactionCode,
  /** Signed minor units: credits ≥ 0 (shown as success), debits < 0 (shown as warning). */
  amount: z.number(),
  currency: ZCurrency,
  /** What it was for: a plan's name, a member's name, a campaign's name, an order id. */
  name: z.string().nullable(),
  /** Messages, parts or lookups it covers (1 for money moves). */
  count: z.number(),
  /** SMS parts of this row paid from the plan's free SMS instead of money. */
  free_parts: z.number(),
  /** How the row moved the user's debt (a reversal owed, a debt paid), minor units. */
  debt_change: z.number(),
  /** The payment order of a top-up, a plan paid by card or a reversal. */
  order_id: z.string().nullable(),
  /** The plan a plan payment bought, for the web to name it in the user's language. */
  plan_id: z.number().nullable(),
  /** Why a refund gave the charge back; whether a top-up came through the sandbox checkout. */
  reason: z.string().nullable(),
  test: z.boolean(),
  created_at: z.string(),
});
export type TTransaction = z.infer<typeof ZTransaction>;
export const ZTransactionPage = pageOf(ZTransaction);

/** `GET /api/balance/transactions`: the user's own ledger, newest first unless ordered. */
export const ZTransactionQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(15),
  order: z.array(ZOrder).max(1).optional(),
  /** The spec's `sorting`: `field,dir`, the same as `order[0]`. */
  sorting: ZOrder.optional(),
});
export type TTransactionQuery = z.infer<typeof ZTransactionQuery>;
export const TRANSACTION_ORDERABLE = ['created_at', 'amount', 'type', 'count'] as const;

/** `GET /api/balance/transactions/total`. */
export const ZTransactionTotal = z.object({
  total: z.number(),
  /** Sums of the user's credits (≥ 0) and debits (< 0, so negative), minor units. */
  credited: z.number(),
  debited: z.number(),
});

/** The plan's free SMS this period; both null: unlimited. */
export const ZFreeSms = z.object({ remaining: z.number().nullable(), total: z.number().nullable() });
export type TFreeSms = z.infer<typeof ZFreeSms>;

/** `GET /api/balance`, and what `/api/user` adds: the header's balance and free-SMS counter. */
export const ZBalance = z.object({
  balance: z.number(),
  balance_currency: ZCurrency,
  balance_auto_refill: z.boolean(),
  free_sms: ZFreeSms,
  /** Minor units the user owes (a reversed payment already spent): paid first by the next top-up. */
  debt: z.number(),
  /** The installation's checkout is the sandbox: no real money moves. */
  test_payments: z.boolean(),
});
export type TBalance = z.infer<typeof ZBalance>;

/** `POST /api/balance/topup`. `redirect_url`: where the checkout returns the browser (this app's own pages only). */
export const ZTopUpRequest = z.object({
  amount: ZAmountInput,
  redirect_url: z.string().max(2000).optional(),
});
export type TTopUpRequest = z.input<typeof ZTopUpRequest>;

/**
 * A hosted checkout to open: the web POSTs `data` and `signature` as hidden form fields to
 * `checkout_url` (LiqPay, or this app's sandbox page when no keys are configured).
 */
export const ZCheckout = z.object({
  data: z.string(),
  signature: z.string(),
  checkout_url: z.string(),
  order_id: z.string(),
  amount: z.number(),
  currency: ZCurrency,
  /** After this the order can no longer be paid (decision 016: 30 minutes). */
  expires_at: z.string(),
  /** The sandbox checkout: no real money moves. */
  test_payments: z.boolean(),
});
export type TCheckout = z.infer<typeof ZCheckout>;

/**
 * `GET /api/balance/orders/:order_id`: how the user's payment went, for the page the checkout
 * returns to. `closed`: the plan was bought otherwise before this order was paid.
 */
export const ZPaymentOrder = z.object({
  order_id: z.string(),
  purpose: z.enum(['top_up', 'subscription']),
  plan_id: z.number().nullable(),
  status: z.enum(['pending', 'paid', 'declined', 'closed', 'reversed']),
  amount: z.number(),
  currency: ZCurrency,
  /** Whether it bought its plan (a plan order paid late only credits the balance). */
  plan_bought: z.boolean(),
  /** The user's balance and debt now. */
  balance: z.number(),
  debt: z.number(),
  test_payments: z.boolean(),
});
export type TPaymentOrder = z.infer<typeof ZPaymentOrder>;

/** `POST /api/balance/share` (owner or admin): amount as typed, to a member of the team. */
export const ZShareRequest = z.object({
  amount: ZAmountInput,
  memberId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  /** The member is refilled from the sharer's balance when a charge finds theirs short. */
  autoRefill: z.boolean().optional().default(false),
});
export type TShareRequest = z.input<typeof ZShareRequest>;

export const ZShareAnswer = z.object({
  message: z.string(),
  code: z.string(),
  /** The sharer's balance after the move. */
  balance: z.number(),
  balance_member: z.object({
    id: z.number(),
    balance: z.number(),
    balance_auto_refill: z.boolean(),
  }),
});
export type TShareAnswer = z.infer<typeof ZShareAnswer>;

/** `POST /api/balance/subscribe`. */
export const ZSubscribeRequest = z.object({
  plan_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/**
 * Paid from the balance: `subscribed` with the team's active subscriptions (the web applies them
 * and reloads); otherwise `checkout`: the price's checkout form, and the plan is applied when that
 * order's payment callback arrives.
 */
export const ZSubscribeAnswer = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('subscribed'),
    message: z.string(),
    code: z.string(),
    balance: z.number(),
    /** As `GET /api/subscriptions` answers them. */
    active_subscriptions: z.array(ZActiveSubscription),
  }),
  ZCheckout.extend({ status: z.literal('checkout') }),
]);
export type TSubscribeAnswer = z.infer<typeof ZSubscribeAnswer>;

/** The payment callback as LiqPay sends it: form fields `data` and `signature`. */
export const ZPaymentCallback = z.object({
  data: z.string().min(1).max(20_000),
  signature: z.string().min(1).max(200),
});

/** `BalanceChanged` on the user's channel: a balance is personal; the header updates that user's tabs. */
export const ZBalanceChangedEvent = z.object({
  balance: z.number(),
  balance_currency: ZCurrency,
  free_sms: ZFreeSms.optional(),
  debt: z.number().optional(),
});
export type TBalanceChangedEvent = z.infer<typeof ZBalanceChangedEvent>;

/** `FreeSmsChanged` on the team's channel: the plan's free SMS are the team's, so every member's header counts them. */
export const ZFreeSmsChangedEvent = z.object({ free_sms: ZFreeSms });
export type TFreeSmsChangedEvent = z.infer<typeof ZFreeSmsChangedEvent>;
