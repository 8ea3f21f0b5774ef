import { z } from 'zod';
import { ZMessageState } from '../messages/messages.schemas.ts';
import { pageOf, ZPageQuery } from '../common/pagination.schemas.ts';
import { ZRecipientBucket, ZSmsStatus } from './campaign-results.ts';

/**
 * The campaign audience (issue 35, decision 038): `GET campaigns/{id}/leads`, every recipient of a
 * started campaign with what each step did for them, and the campaigns list's figures.
 */

/** The spec's tables page 15, 50 or 100; the campaign audience opens at 50 like the other lead tables. */
export const CAMPAIGN_AUDIENCE_PAGE_SIZE = 50;

/** What the table sorts by: the lead, its phone, its first hand-over, its cost, whether it clicked. */
export const CAMPAIGN_AUDIENCE_SORT_FIELDS = ['lead_id', 'phone', 'sent_at', 'cost', 'clicked'] as const;
export type TCampaignAudienceSortField = (typeof CAMPAIGN_AUDIENCE_SORT_FIELDS)[number];

export const ZCampaignAudienceQuery = ZPageQuery.extend({
  limit: ZPageQuery.shape.limit.unwrap().default(CAMPAIGN_AUDIENCE_PAGE_SIZE),
});
export type TCampaignAudienceQuery = z.infer<typeof ZCampaignAudienceQuery>;

/** One step for one recipient: its bucket (`campaign-results.ts`), SMS status, hand-over, click and cost. */
export const ZRecipientStep = z.object({
  step_id: z.number(),
  position: z.number(),
  bucket: ZRecipientBucket,
  /** Why it failed or was skipped (a skip reason, a carrier status or an error code); null otherwise. */
  reason: z.string().nullable(),
  sms_status: ZSmsStatus.nullable(),
  /** The message row's state; null when the step made no row for this recipient. */
  state: ZMessageState.nullable(),
  /** When the gateway took it. */
  sent_at: z.string().nullable(),
  /** A human opened one of its links (bots and previews never count). */
  clicked: z.boolean(),
  /** Minor units charged and not given back. */
  cost: z.number(),
});
export type TRecipientStep = z.infer<typeof ZRecipientStep>;

export const ZCampaignRecipient = z.object({
  lead_id: z.number(),
  /** The phone the campaign sends to; null when the lead had none it could use. */
  phone: z.string().nullable(),
  /** Why the whole campaign skips this lead (fixed at the start); null for a recipient sent to. */
  skip_reason: z.string().nullable(),
  /** One entry per step, in step order. */
  steps: z.array(ZRecipientStep),
  clicked: z.boolean(),
  cost: z.number(),
});
export type TCampaignRecipient = z.infer<typeof ZCampaignRecipient>;

export const ZCampaignRecipientPage = pageOf(ZCampaignRecipient).extend({
  steps: z.array(z.object({ id: z.number(), position: z.number(), name: z.string() })),
});
export type TCampaignRecipientPage = z.infer<typeof ZCampaignRecipientPage>;

/** `GET campaigns/results?ids=1,2`: the list's figures for the campaigns on its page. */
export const ZCampaignFiguresQuery = z.object({
  ids: z
    .string()
    .max(2000)
    .transform((v, ctx) => {
      const ids = v.split(',').map((s) => Number(s.trim()));
      if (ids.length === 0 || ids.length > 100 || ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
        ctx.addIssue({ code: 'custom', message: 'ids' });
        return z.NEVER;
      }
      return [...new Set(ids)];
    }),
});

/**
 * A campaign's figures as the spec names them: records (recipients sent to), amount_sent of all
 * steps' messages, delivered, unique human clickers; percentages floored: sent of records × SMS
 * steps, delivered of sent, clicked of delivered. `actual_cost`: minor units charged and kept.
 */
export const ZCampaignFigures = z.object({
  id: z.number(),
  records: z.number(),
  amount_sent: z.number(),
  amount_delivered: z.number(),
  amount_clicked: z.number(),
  percentage_sent_of_all_steps: z.number(),
  percentage_delivered: z.number(),
  percentage_clicked: z.number(),
  actual_cost: z.number(),
});
export type TCampaignFigures = z.infer<typeof ZCampaignFigures>;
export const ZCampaignFiguresList = z.object({ data: z.array(ZCampaignFigures) });
