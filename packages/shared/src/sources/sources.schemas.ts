import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { pageOf } from '../common/pagination.schemas.ts';

export const ZActivity = z.enum(['active', 'inactive']);

/** Counts shown for a source or a list (spec section 3). */
export const ZLeadCounts = z.object({
  total_leads: z.number(),
  total_today: z.number(),
  total_last_30_days: z.number(),
  duplicate: z.number(),
  total_flagged_leads: z.number(),
  total_blacklisted_leads: z.number(),
  percentage_lookup: z.number(),
  percentage_verified: z.number(),
});
export type TLeadCounts = z.infer<typeof ZLeadCounts>;

export const ZList = ZLeadCounts.extend({
  id: z.number(),
  name: z.string(),
  status: ZActivity,
  is_active: z.boolean(),
  source_id: z.number(),
  created_at: z.string(),
});
export type TList = z.infer<typeof ZList>;

export const ZSource = ZLeadCounts.extend({
  id: z.number(),
  name: z.string(),
  status: ZActivity,
  created_at: z.string(),
  lists: z.array(z.object({ id: z.number(), name: z.string(), status: ZActivity })),
});
export type TSource = z.infer<typeof ZSource>;

export const ZSourcePage = pageOf(ZSource);

/** `GET /all-sources-with-lists`: every source with its lists, for selectors (no counts). */
export const ZSourceWithLists = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  lists: ZSource.shape.lists,
});
export type TSourceWithLists = z.infer<typeof ZSourceWithLists>;
export const ZSourcesWithLists = z.object({ data: z.array(ZSourceWithLists) });
export const ZListPage = pageOf(ZList);

const ZName = z.string().trim().min(1, messageText('name_required')).max(120);
export const ZCreateSourceRequest = z.object({ name: ZName });
export const ZUpdateSourceRequest = z.object({ name: ZName.optional(), status: ZActivity.optional() });
export const ZCreateListRequest = z.object({ name: ZName, status: ZActivity.default('active') });
export const ZUpdateListRequest = ZUpdateSourceRequest;

/** Header of /sources: totals over the whole team. */
export const ZSourcesTotal = z.object({
  total_leads: z.number(),
  total_today: z.number(),
  duplicates_today: z.number(),
});
