import { z } from 'zod';
import { messageText, ZMessage } from '../common/messages.ts';
import { ZAttributeType } from '../attributes/attributes.schemas.ts';
import { pageOf, ZIds, ZPageQuery } from '../common/pagination.schemas.ts';
import { CAMPAIGN_STATUSES } from '../campaigns/campaign-moves.ts';

export const LEAD_STATUSES = ['active', 'pending', 'flagged', 'blacklisted', 'inactive'] as const;
export const ZLeadStatus = z.enum(LEAD_STATUSES);
export type TLeadStatus = z.infer<typeof ZLeadStatus>;
/** What a bulk change may set (spec section 4). */
export const BULK_LEAD_STATUSES = ['active', 'blacklisted', 'flagged'] as const;
export const ZBulkLeadStatus = z.enum(BULK_LEAD_STATUSES);

export const ZLeadValue = z.object({
  id: z.number(),
  attribute: z.object({ id: z.number(), name: z.string(), type: ZAttributeType, slug: z.string() }),
  value: z.string(),
  // Phone values only; filled by lookups and campaigns.
  status_label: z.string().nullable(),
  carrier_name: z.string().nullable(),
  carrier_type: z.string().nullable(),
  clicked: z.boolean().nullable(),
  ban: z.boolean().nullable(),
});
export type TLeadValue = z.infer<typeof ZLeadValue>;

export const ZLead = z.object({
  id: z.number(),
  status: ZLeadStatus,
  source_id: z.number(),
  list_id: z.number(),
  duplicates: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  lead_values: z.array(ZLeadValue),
});
export type TLead = z.infer<typeof ZLead>;

export const ZLeadPage = pageOf(ZLead).extend({
  meta: pageOf(ZLead).shape.meta.extend({ total_blacklisted: z.number() }),
});
export type TLeadPage = z.infer<typeof ZLeadPage>;

export const ZCreateLeadRequest = z.object({
  source_id: z.coerce.number().int().positive(),
  list_id: z.coerce.number().int().positive(),
  attributes: z.array(z.object({ attr_id: z.coerce.number().int().positive(), value: z.string().max(5000) })).max(200),
});
export type TCreateLeadRequest = z.infer<typeof ZCreateLeadRequest>;

export const ZValueRequest = z.object({ value: z.string().trim().min(1, messageText('value_required')).max(5000) });
export const ZBatchIdsRequest = z.object({ ids: ZIds });
/** One lead may be set to any status; several only to a bulk status (spec section 4). */
export const ZBatchStatusRequest = z
  .object({ ids: ZIds, status: ZLeadStatus })
  .refine((b) => new Set(b.ids).size === 1 || ZBulkLeadStatus.safeParse(b.status).success, {
    path: ['status'],
    message: messageText('status_not_bulk'),
  });
/** Bulk answers: one message per outcome, each shown as an alert. */
export const ZBatchResult = z.object({ info: z.array(ZMessage), errors: z.array(ZMessage) });
export type TBatchResult = z.infer<typeof ZBatchResult>;

export const ZLeadLogEntry = z.object({
  id: z.number(),
  created_at: z.string(),
  type: z.string(),
  action: z.string(),
  filename: z.string().nullable(),
  diff_log: z.array(
    z.object({
      action: z.string(),
      lead_attribute_name: z.string().nullable(),
      lead_attribute_value: z.string().nullable(),
      value_from: z.string().nullable(),
      value_to: z.string().nullable(),
    }),
  ),
  /** A sent message's entry: who it went from, through which gateway, its parts and what it cost. */
  message: z
    .object({
      id: z.number(),
      from: z.string().nullable(),
      gateway: z.string().nullable(),
      parts: z.number(),
      /** Minor units of `currency`. */
      price: z.number(),
      currency: z.string(),
      status: z.string().nullable(),
    })
    .optional(),
  /** A campaign message's entry (type `campaign_message`): the campaign and the step it was. */
  campaign: z.object({ id: z.number(), name: z.string(), step: z.number() }).optional(),
});
export type TLeadLogEntry = z.infer<typeof ZLeadLogEntry>;
export const ZLeadLogPage = pageOf(ZLeadLogEntry);

/** Chips on the lead page: the campaigns that took the lead as a recipient, newest first. */
export const ZLeadCampaigns = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string(), status: z.enum(CAMPAIGN_STATUSES) })),
});
export type TLeadCampaigns = z.infer<typeof ZLeadCampaigns>;
/** At most this many campaign chips on a lead's page. */
export const LEAD_CAMPAIGNS_SHOWN = 100;

/** Chips on the lead page: where the lead lives. */
export const ZLeadLinks = z.object({ data: z.array(z.object({ id: z.number(), name: z.string() })) });

/** The leads list's own query: the page, and `duplicates=1` for only the leads that share a phone. */
export const ZLeadPageQuery = ZPageQuery.extend({
  duplicates: z.enum(['0', '1']).optional(),
});
export type TLeadPageQuery = z.infer<typeof ZLeadPageQuery>;

/** The leads that share a phone with one lead (its `duplicates`), where they live, and which phones. */
export const ZLeadDuplicates = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      status: ZLeadStatus,
      /** The phones it shares with the lead asked about. */
      phones: z.array(z.string()),
      source: z.object({ id: z.number(), name: z.string() }),
      list: z.object({ id: z.number(), name: z.string() }),
    }),
  ),
  /** More leads share its phones than the list holds (it stops at DUPLICATES_SHOWN). */
  more: z.boolean(),
});
export type TLeadDuplicates = z.infer<typeof ZLeadDuplicates>;
export const DUPLICATES_SHOWN = 100;
