import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { pageOf, ZIds, ZOrder, ZPageQuery } from '../common/pagination.schemas.ts';
import { ZSegmentCondition, ZSegmentConditions } from './segment-conditions.ts';

/** Audiences are root segments; a child segment narrows its parent (spec sections 2, 3 and 7). */
export const ZSegment = z.object({
  id: z.number(),
  name: z.string(),
  /** The inverse of 'Update dynamically': membership frozen when the conditions were saved. */
  ignore_new_leads: z.boolean(),
  filters: z.array(
    z.object({
      id: z.union([z.string(), z.number()]),
      operator: z.string(),
      values: z.array(z.string()),
      type: z.string().optional(),
    }),
  ),
  parent_segment_id: z.number().nullable(),
  parent: z.object({ id: z.number(), name: z.string() }).nullable(),
  segments_count: z.number(),
  /** Null where the list does not compute it (`leads-count` gives it). */
  leads_count: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TSegment = z.infer<typeof ZSegment>;
export const ZSegmentPage = pageOf(ZSegment);

const ZName = z.string().trim().min(1, messageText('name_required')).max(255);

export const ZCreateSegmentRequest = z.object({
  name: ZName,
  ignore_new_leads: z.boolean().default(false),
  filters: ZSegmentConditions.optional(),
});
export type TCreateSegmentRequest = z.infer<typeof ZCreateSegmentRequest>;

export const ZUpdateSegmentRequest = z.object({
  name: ZName.optional(),
  ignore_new_leads: z.boolean().optional(),
});
export const ZCloneSegmentRequest = z.object({ name: ZName.optional() });
export const ZFiltersRequest = z.object({ filters: ZSegmentConditions });
export const ZSourcesSyncRequest = z.object({ sources: z.array(z.coerce.number().int().positive()).max(1_000) });
export const ZListsSyncRequest = z.object({ lists: z.array(z.coerce.number().int().positive()).max(1_000) });
/** Value conditions and presence conditions (empty / not_empty), replacing all but source and list. */
export const ZConditionsSyncRequest = z.object({
  conditions: z.array(ZSegmentCondition).max(50).default([]),
  empties: z.array(ZSegmentCondition).max(50).default([]),
});

export const ZSegmentAggregations = z.object({
  leads_count: z.number(),
  duplicates_count: z.number(),
  segments_count: z.number(),
});
export const ZLeadsCount = z.object({ leads_count: z.number() });
export const ZSegmentListQuery = ZPageQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

export const ZExportRequest = z.object({
  name: ZName,
  /** Attribute ids, in the order of the columns; all attributes when empty. */
  attributes: z.array(z.coerce.number().int().positive()).max(200).default([]),
  search: z.string().max(200).optional(),
  order: ZOrder.optional(),
  /** CSV (the default) or XLSX, whose text cells keep phones phones in a spreadsheet. */
  format: z.enum(['csv', 'xlsx']).optional(),
});
export type TExportRequest = z.infer<typeof ZExportRequest>;

export const EXPORT_TYPES = ['export-pending', 'export-completed', 'export-failed'] as const;
export const ZExport = z.object({
  id: z.number(),
  name: z.string(),
  segment_id: z.number().nullable(),
  /** export-completed carries the download link; anything else shows "Generating file". */
  type: z.enum(EXPORT_TYPES),
  rows: z.number(),
  progress: z.number(),
  url: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type TExport = z.infer<typeof ZExport>;
export const ZExportList = z.object({ data: z.array(ZExport) });

export const ZBatchSegmentIds = z.object({ ids: ZIds });

/** GET /leads/{id}/segments: the audiences (no parent) and segments the lead belongs to now. */
export const ZLeadSegments = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string(), parent_segment_id: z.number().nullable() })),
});
export type TLeadSegments = z.infer<typeof ZLeadSegments>;
