import { z } from 'zod';
import { pageOf, ZPageQuery } from '../common/pagination.schemas.ts';
import { ZLookupStatusCode } from '../lookups/lookups.schemas.ts';
import { CAMPAIGN_STEP_STATUSES } from './campaign-moves.ts';
import { ENGAGEMENT_VALUES, SMS_STATUSES, ZRecipientBucket, ZSmsStatus } from './campaign-results.ts';

/**
 * `GET campaigns/{id}/statistic` (decision 037). Amounts and floored percentages as the spec names
 * them, for the campaign and each step, plus what senders expect beside them. Money is in minor
 * units of the team's currency; `free_sms` are the parts the plan's free SMS paid.
 */
export const ZStatisticFigures = z.object({
  /** Recipients this figure is about (a step: the campaign's, at most its limit cap). */
  records: z.number(),
  amount_sent: z.number(),
  percentage_sent: z.number(),
  amount_delivered: z.number(),
  percentage_delivered: z.number(),
  /** Unique human clickers; the rate is clickers ÷ delivered. */
  amount_clicked: z.number(),
  percentage_clicked: z.number(),
  /** Every human click, and the bot or preview hits never counted as clicks. */
  human_clicks: z.number(),
  other_hits: z.number(),
  amount_error: z.number(),
  percentage_error: z.number(),
  amount_eng: z.number(),
  percentage_eng: z.number(),
  amount_not_eng: z.number(),
  percentage_not_eng: z.number(),
  amount_status_delivered: z.number(),
  amount_status_blocked: z.number(),
  amount_status_inactive: z.number(),
  amount_status_error: z.number(),
  amount_status_sent: z.number(),
  amount_status_sending: z.number(),
  amount_status_queued: z.number(),
  /** Parts of the messages handed to the gateway. */
  sms_parts: z.number(),
  actual_cost: z.number(),
  free_sms: z.number(),
  /** Money spent on messages that were sent and not delivered (failed, or unconfirmed). */
  undelivered_cost: z.number(),
  /** actual_cost ÷ unique human clickers; null with no clicker. */
  cost_per_click: z.number().nullable(),
  /** Each recipient in exactly one (they add up to `records`). */
  buckets: z.record(ZRecipientBucket, z.number()),
  skipped: z.record(z.string(), z.number()),
  failed: z.record(z.string(), z.number()),
});
export type TStatisticFigures = z.infer<typeof ZStatisticFigures>;

export const ZStatisticStep = ZStatisticFigures.extend({
  step_id: z.number(),
  position: z.number(),
  limit_cap: z.number().nullable(),
});

/**
 * A lookup step (decision 041): what its lookup did to the phones that reached it. `phones` are its
 * items; `looked_up` answered by the provider (charged), `reused` settled free (a fresh result or a
 * delivered message), `failed` given up after the provider's failures (each refunded), `refunds`
 * the refunds of failed attempts. Of the phones with a result (`done`), by the team's result:
 * `valid_mobile`, `invalid`, `not_mobile` (by line type in `not_mobile_by_type`) and `unknown` (a
 * mobile the provider could not call valid or invalid) — they add up to `done`; the SMS step after
 * it skips `invalid` and `not_mobile`. Percentages are floored: `done` of `phones`, the findings of
 * `done`. `cost` is the money kept for its phones looked up; `saved` what the reused ones would have cost.
 */
export const ZStatisticLookupStep = z.object({
  step_id: z.number(),
  position: z.number(),
  status: z.enum(CAMPAIGN_STEP_STATUSES),
  /** Null until its turn came (the lookup is made then), or after the lookup was deleted. */
  lookup_id: z.number().nullable(),
  lookup_status: ZLookupStatusCode.nullable(),
  /** A message code when the lookup is paused for a reason (no money, no gateway). */
  paused_reason: z.string().nullable(),
  gateway_id: z.number().nullable(),
  gateway_name: z.string().nullable(),
  phones: z.number(),
  done: z.number(),
  percentage_done: z.number(),
  looked_up: z.number(),
  reused: z.number(),
  failed: z.number(),
  refunds: z.number(),
  valid_mobile: z.number(),
  percentage_valid_mobile: z.number(),
  invalid: z.number(),
  percentage_invalid: z.number(),
  not_mobile: z.number(),
  percentage_not_mobile: z.number(),
  not_mobile_by_type: z.object({ landline: z.number(), voip: z.number(), toll_free: z.number(), other: z.number() }),
  unknown: z.number(),
  percentage_unknown: z.number(),
  cost: z.number(),
  saved: z.number(),
});
export type TStatisticLookupStep = z.infer<typeof ZStatisticLookupStep>;

export const ZStatisticSlice = ZStatisticFigures.omit({ buckets: true, skipped: true, failed: true, records: true });

export const ZCampaignStatistic = z.object({
  /** False for draft and scheduled: 'Statistic is unavailable' (spec), and nothing else is sent. */
  available: z.boolean(),
  currency: z.string().nullable(),
  unconfirmed_after_hours: z.number(),
  /**
   * The whole campaign. Its `actual_cost` is what the campaign spent: its messages and its lookup
   * steps (`lookup_cost`, also counted in `cost_per_click`); the slices by gateway and sender are
   * the messages' alone.
   */
  campaign: ZStatisticFigures.extend({ messages: z.number(), lookup_cost: z.number() }).nullable(),
  /** SMS steps, in step order. */
  steps: z.array(ZStatisticStep),
  /** Lookup steps, in step order; `position` places them among `steps`. */
  lookup_steps: z.array(ZStatisticLookupStep),
  opt_outs: z.object({ stop: z.number(), unsubscribe_link: z.number() }),
  links: z.array(
    z.object({
      redirect_to: z.string().nullable(),
      clickers: z.number(),
      human_clicks: z.number(),
      other_hits: z.number(),
    }),
  ),
  /** Hours (UTC, ISO) with deliveries or first human clicks; the browser shows them in its own zone. */
  hourly: z.array(z.object({ hour: z.string(), delivered: z.number(), clicked: z.number() })),
  by_gateway: z.array(ZStatisticSlice.extend({ gateway_id: z.number().nullable(), name: z.string().nullable() })),
  by_sender: z.array(ZStatisticSlice.extend({ sender: z.string().nullable() })),
});
export type TCampaignStatistic = z.infer<typeof ZCampaignStatistic>;

/**
 * What `statistic-leads` can open: an SMS status or an engagement value (spec; `engaged` is a
 * human click), and the screen's other figures: clicked, engaged in any way, not engaged, every
 * message handed over (`all_sent`), every failure whatever its status (`all_failed`), and the
 * unconfirmed, skipped and unknown buckets.
 */
export const STATISTIC_FILTER_TYPES = [
  ...SMS_STATUSES,
  ...ENGAGEMENT_VALUES,
  'clicked',
  'clicked_or_unsubscribed',
  'not_engaged',
  'all_sent',
  'all_failed',
  'unconfirmed',
  'skipped',
  'unknown',
] as const;
export const ZStatisticFilterType = z.enum(STATISTIC_FILTER_TYPES);
export type TStatisticFilterType = z.infer<typeof ZStatisticFilterType>;

export const ZStatisticLeadsQuery = ZPageQuery.pick({ page: true, limit: true }).extend({
  /** Without one: every message the campaign handed over. */
  filter_type: ZStatisticFilterType.default('all_sent'),
  step_id: z.coerce.number().int().positive().optional(),
});

export const ZStatisticLead = z.object({
  /** Null when the lead was deleted after the send. */
  lead_id: z.number().nullable(),
  /** Null for a recipient skipped at the start for having no valid phone. */
  phone: z.string().nullable(),
  step_id: z.number(),
  position: z.number(),
  sms_status: ZSmsStatus.nullable(),
  bucket: ZRecipientBucket,
  clicked: z.boolean(),
  at: z.string().nullable(),
});
export const ZStatisticLeadsPage = pageOf(ZStatisticLead);
export type TStatisticLead = z.infer<typeof ZStatisticLead>;
