import { type TRecipientBucket, percentOf, RECIPIENT_BUCKETS } from '@herald/shared/campaigns/campaign-results';
import type { TStatisticFigures } from '@herald/shared/campaigns/campaign-statistics.schemas';
import type { RowGroup } from './campaign-statistics.repository.ts';

/** A campaign's, a step's or a slice's figures as its message groups are added up (decision 037). */
export type Totals = Omit<TStatisticFigures, `percentage_${string}` | 'cost_per_click' | 'records'>;

export function emptyTotals(): Totals {
  return {
    amount_sent: 0,
    amount_delivered: 0,
    amount_clicked: 0,
    human_clicks: 0,
    other_hits: 0,
    amount_error: 0,
    amount_eng: 0,
    amount_not_eng: 0,
    amount_status_delivered: 0,
    amount_status_blocked: 0,
    amount_status_inactive: 0,
    amount_status_error: 0,
    amount_status_sent: 0,
    amount_status_sending: 0,
    amount_status_queued: 0,
    sms_parts: 0,
    actual_cost: 0,
    free_sms: 0,
    undelivered_cost: 0,
    buckets: Object.fromEntries(RECIPIENT_BUCKETS.map((b) => [b, 0])) as Record<TRecipientBucket, number>,
    skipped: {},
    failed: {},
  };
}

const STATUS_KEY: Record<string, keyof Totals> = {
  delivered: 'amount_status_delivered',
  blocked_by_carrier: 'amount_status_blocked',
  inactive_device: 'amount_status_inactive',
  failed: 'amount_status_error',
  sent: 'amount_status_sent',
  sending: 'amount_status_sending',
  queued: 'amount_status_queued',
};

export function add(t: Totals, g: RowGroup) {
  t.amount_sent += g.sent;
  if (g.bucket === 'delivered') t.amount_delivered += g.n;
  if (g.bucket === 'failed') {
    t.amount_error += g.n;
    t.failed[g.reason ?? 'failed'] = (t.failed[g.reason ?? 'failed'] ?? 0) + g.n;
  }
  if (g.bucket === 'skipped') t.skipped[g.reason ?? 'skipped'] = (t.skipped[g.reason ?? 'skipped'] ?? 0) + g.n;
  if (g.bucket === 'failed' || g.bucket === 'unconfirmed') t.undelivered_cost += g.cost;
  t.buckets[g.bucket as TRecipientBucket] += g.n;
  const key = g.sms_status === null ? undefined : STATUS_KEY[g.sms_status];
  if (key) (t[key] as number) += g.n;
  t.amount_clicked += g.clicked;
  t.human_clicks += g.human_clicks;
  t.other_hits += g.other_hits;
  t.amount_eng += g.engaged;
  t.amount_not_eng += g.sent - g.engaged_sent;
  t.sms_parts += g.parts;
  t.actual_cost += g.cost;
  t.free_sms += g.free_sms;
}

export function withPercentages(t: Totals, records: number, planned: number): TStatisticFigures {
  return {
    ...t,
    records,
    percentage_sent: percentOf(t.amount_sent, planned),
    percentage_delivered: percentOf(t.amount_delivered, t.amount_sent),
    percentage_clicked: percentOf(t.amount_clicked, t.amount_delivered),
    percentage_error: percentOf(t.amount_error, t.amount_sent),
    percentage_eng: percentOf(t.amount_eng, t.amount_sent),
    percentage_not_eng: percentOf(t.amount_not_eng, t.amount_sent),
    cost_per_click: t.amount_clicked > 0 ? Math.round(t.actual_cost / t.amount_clicked) : null,
  };
}
