import type { TTransaction } from '@herald/shared/billing/billing.schemas';

/** Refund reasons the ledger knows how to say; another is said as a refund without a reason. */
export const REFUND_REASONS = ['not_sent', 'cancelled', 'expired', 'unknown_after_deadline'] as const;

/**
 * A billing-history row in words (issue: every row described in the user's language): which
 * sentence of `billing:history.*` says it, its values, and a detail line (the order id, what is
 * owed). `planName` names a plan by id in the chosen language (the catalogue), or null.
 */
export function describeTransaction(
  row: Pick<TTransaction, 'type' | 'amount' | 'name' | 'order_id' | 'plan_id' | 'reason' | 'test' | 'debt_change'>,
  planName: (id: number) => string | null,
): { key: string; values: Record<string, string>; detail: { key: string; values: Record<string, string> } | null } {
  const who = row.name ?? '';
  const order = row.order_id ? { key: 'history.order', values: { order: row.order_id } } : null;
  switch (row.type) {
    case 'top_up':
      return { key: row.order_id ? 'history.topUpCard' : 'history.topUp', values: {}, detail: order };
    case 'subscribe_payment': {
      const plan = (row.plan_id !== null ? planName(row.plan_id) : null) ?? who;
      return { key: row.order_id ? 'history.planByCard' : 'history.plan', values: { plan }, detail: order };
    }
    case 'share_balance':
    case 'auto_share_balance': {
      const base = row.type === 'share_balance' ? 'history.share' : 'history.autoRefill';
      return { key: `${base}${row.amount < 0 ? 'To' : 'From'}`, values: { name: who }, detail: null };
    }
    case 'sent_message':
      if (row.test) return { key: 'history.testSms', values: {}, detail: null };
      return { key: who ? 'history.campaignSms' : 'history.sms', values: { name: who }, detail: null };
    case 'sent_single_message':
      return { key: who ? 'history.singleSmsTo' : 'history.singleSms', values: { name: who }, detail: null };
    case 'lookup':
      return { key: 'history.lookup', values: {}, detail: null };
    case 'refund': {
      const reason = REFUND_REASONS.find((r) => r === row.reason);
      return {
        key: 'history.refund',
        values: {},
        detail: reason ? { key: `history.refundReasons.${reason}`, values: {} } : null,
      };
    }
    case 'payment_reversed':
      return { key: 'history.reversed', values: {}, detail: order };
    case 'debt_payment':
      return { key: 'history.debtPaid', values: {}, detail: null };
  }
}
