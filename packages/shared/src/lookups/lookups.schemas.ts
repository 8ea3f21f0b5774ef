import { z } from 'zod';
import { ZMessage } from '../common/messages.ts';
import { pageOf, ZIds, ZPageQuery } from '../common/pagination.schemas.ts';
import type { TProcess } from '../processes/processes.schemas.ts';

/** The spec's lookups (sections 3, 4, 7); decision 040. Money is in minor units of `currency`. */

/** 0 pending, 1 running, 2 paused, 3 completed (the spec's numbers). */
export const LOOKUP_STATUS = { pending: 0, running: 1, paused: 2, completed: 3 } as const;
export const ZLookupStatusCode = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
export type TLookupStatusCode = z.infer<typeof ZLookupStatusCode>;

/** `list`: a list's phones; `campaign_step`: a lookup step's recipients. */
export const LOOKUP_TYPES = ['list', 'campaign_step'] as const;
export const ZLookupType = z.enum(LOOKUP_TYPES);
export type TLookupType = z.infer<typeof ZLookupType>;

export const LOOKUP_ITEM_STATES = ['pending', 'claimed', 'done', 'reused', 'failed'] as const;
export type TLookupItemState = (typeof LOOKUP_ITEM_STATES)[number];

export const CARRIER_TYPES = ['mobile', 'landline', 'voip', 'toll_free', 'other'] as const;
export const ZCarrierType = z.enum(CARRIER_TYPES);
export type TCarrierType = z.infer<typeof ZCarrierType>;
export const STATUS_LABELS = ['valid', 'invalid', 'unknown'] as const;
export const ZStatusLabel = z.enum(STATUS_LABELS);
export type TStatusLabel = z.infer<typeof ZStatusLabel>;
export const REACHABILITIES = ['connected', 'absent'] as const;
export const ZReachability = z.enum(REACHABILITIES);
export type TReachability = z.infer<typeof ZReachability>;

/** 50 a page (spec). */
export const LOOKUPS_PAGE_SIZE = 50;
/** A result younger than this many days is reused, not charged (a team may set its own). */
export const DEFAULT_LOOKUP_FRESH_DAYS = 30;
export const LOOKUP_SORT_FIELDS = ['id', 'status', 'created_at', 'updated_at', 'source', 'list', 'phones'] as const;

/** A phone's result, one vocabulary whatever the provider (`phone_lookups`). */
export const ZLookupResult = z.object({
  phone: z.string(),
  carrier_name: z.string().nullable(),
  /** The network's MCC-MNC, e.g. `25501`; null when the provider does not say. */
  mcc_mnc: z.string().nullable(),
  carrier_type: ZCarrierType,
  status_label: ZStatusLabel,
  /** Only where the provider tells it. */
  reachability: ZReachability.nullable(),
  ported: z.boolean().nullable(),
  checked_at: z.string(),
  gateway_id: z.number().nullable(),
  /** Minor units this result cost (0 when proven by a delivered message). */
  cost: z.number(),
});
export type TLookupResult = z.infer<typeof ZLookupResult>;

const ZNamed = z.object({ id: z.number(), name: z.string() });

/** A row of `/lookup-management` and the `LookupStatus` event's payload. */
export const ZLookup = z.object({
  id: z.number(),
  type: ZLookupType,
  source: ZNamed.nullable(),
  list: ZNamed.nullable(),
  /** The spec names it the messaging id: the gateway that looks the phones up. */
  gateway: ZNamed.nullable(),
  status: ZLookupStatusCode,
  /** Why the engine paused it, a message code (`balance_not_enough_lookup`, …); null otherwise. */
  reason: z.string().nullable(),
  /** Phones left to look up (the spec's '{n} phones left'). */
  count: z.number(),
  /** Done of all phones, floored, 0–100. */
  percent: z.number(),
  /** Seconds left at the measured rate; null when not running or not yet measured. */
  time_left: z.number().nullable(),
  phones: z.number(),
  /** Answered from a fresh result or a delivered message: not charged. */
  reused: z.number(),
  looked_up: z.number(),
  failed: z.number(),
  cost: z.number(),
  /** What the reused phones would have cost. */
  saved: z.number(),
  currency: z.string(),
  launched_by: z.number().nullable(),
  campaign_step_id: z.number().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type TLookup = z.infer<typeof ZLookup>;
export const ZLookupPage = pageOf(ZLookup);

export const ZLookupListQuery = ZPageQuery.extend({
  limit: ZPageQuery.shape.limit.unwrap().default(LOOKUPS_PAGE_SIZE),
});

/** `GET lookup/status`: the caller's team's lookups at a glance. */
export const ZLookupStatusSummary = z.object({
  /** Some lookup of the team is running. */
  in_progress: z.boolean(),
  /** Lookups cost money here (the price list's rate is above 0). */
  is_paid: z.boolean(),
  /** Phones looked up (or reused) by the running lookups so far. */
  looked_up_count: z.number(),
  /** Seconds until the running lookups finish; null when none runs. */
  time_left: z.number().nullable(),
  /** The caller's balance, minor units. */
  available_account_balance: z.number(),
  /** One lookup's price for the caller, minor units. */
  price: z.number(),
  currency: z.string(),
});
export type TLookupStatusSummary = z.infer<typeof ZLookupStatusSummary>;

/** `POST lookup/preview`: what starting lookups of these sources or lists would do. */
export const ZLookupPreviewBody = z
  .object({ source_ids: ZIds.optional(), list_ids: ZIds.optional() })
  .refine((b) => (b.source_ids?.length ?? 0) + (b.list_ids?.length ?? 0) > 0, { message: 'ids_required' });
export const ZLookupPreview = z.object({
  /** Distinct phones of each list, summed over the lists. */
  phones: z.number(),
  /** Of those, with a fresh result or a delivered message: free. */
  fresh: z.number(),
  to_pay: z.number(),
  /** One lookup's price, minor units. */
  price: z.number(),
  /** `to_pay` × `price`. */
  total: z.number(),
  balance: z.number(),
  currency: z.string(),
  /** Lists that would get a lookup. */
  lists: z.number(),
});
export type TLookupPreview = z.infer<typeof ZLookupPreview>;

/** `POST lookup`: a lookup of one list; started at once unless `start` is false. */
export const ZLookupCreateBody = z.object({
  list_id: z.coerce.number().int().positive(),
  gateway_id: z.coerce.number().int().positive().optional(),
  start: z.boolean().default(true),
});
/** `PUT lookup/{id}`: the gateway (not while running). */
export const ZLookupUpdateBody = z.object({ gateway_id: z.coerce.number().int().positive() });
/** `POST lookup/{id}/status`: 1 starts (from 0 or 2), 2 pauses or stops (from 1). */
export const ZLookupStatusBody = z.object({ status: z.coerce.number().int().min(1).max(2) });
/** `POST lookup-start`, `lookup-stop`, `sources/lookup`, `sources/lists/lookup`. */
export const ZLookupIdsBody = z.object({ ids: ZIds });

/** What the bulk calls and single moves answer: a message for the toast and the rows as they are now. */
export const ZLookupsAnswer = z.object({ message: ZMessage, lookups: z.array(ZLookup) });
export type TLookupsAnswer = z.infer<typeof ZLookupsAnswer>;

/** `LookupStatus` (the live event, to every member of the team): a lookup moved or progressed. */
export const ZLookupStatusEvent = ZLookup;
export type TLookupStatusEvent = TLookup;

/** The kind of a running lookup's process row in the header's popover. */
export const LOOKUP_PROCESS_KIND = 'lookups.run';
const ZLookupProcessParams = z.object({
  lookup_id: z.number().int().positive(),
  done: z.number().int().nonnegative(),
  phones: z.number().int().nonnegative(),
});
export type TLookupProcessParams = z.infer<typeof ZLookupProcessParams>;

/** The lookup and figures of a lookup's process row; null for any other process. */
export function lookupProcessOf(process: Pick<TProcess, 'kind' | 'message'>): TLookupProcessParams | null {
  if (process.kind !== LOOKUP_PROCESS_KIND) return null;
  const parsed = ZLookupProcessParams.safeParse(process.message?.params);
  return parsed.success ? parsed.data : null;
}

/** Start is offered for pending and paused, stop for running (spec 4). */
export const canStartLookup = (status: TLookupStatusCode) => status === 0 || status === 2;
export const canStopLookup = (status: TLookupStatusCode) => status === 1;
