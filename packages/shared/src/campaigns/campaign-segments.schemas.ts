import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { pageOf, ZPageQuery } from '../common/pagination.schemas.ts';
import { ZCampaignStatus } from './campaigns.schemas.ts';
import { ZEngagement, ZSmsStatus } from './campaign-results.ts';

/** Campaigns a segment can be made from (spec section 4): sending is over or held. */
export const SEGMENT_SOURCE_STATUSES = ['completed', 'failed', 'paused'] as const;

/**
 * POST campaigns/{id}/create-segment (spec section 7): an audience, or a segment of the chosen
 * audience, of the campaign's leads with this SMS status and/or this engagement. Dynamic unless
 * `ignore_new_leads` (frozen: the leads it matches now). One of sms_status and engagement is
 * required: the service says so after another team's campaign has answered 404.
 */
export const ZCreateCampaignSegmentRequest = z.object({
  audience_id: z.coerce.number().int().positive().nullish(),
  name: z.string().trim().min(1, messageText('name_required')).max(255),
  ignore_new_leads: z.boolean().default(false),
  sms_status: ZSmsStatus.nullish(),
  engagement: ZEngagement.nullish(),
});
export type TCreateCampaignSegmentRequest = z.input<typeof ZCreateCampaignSegmentRequest>;

/** GET completed-campaigns: the choices of the audience filter `campaigns`. */
export const ZCompletedCampaignsQuery = ZPageQuery.extend({
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
export const ZCompletedCampaign = z.object({
  id: z.number(),
  name: z.string(),
  status: ZCampaignStatus,
  completed_at: z.string().nullable(),
});
export type TCompletedCampaign = z.infer<typeof ZCompletedCampaign>;
export const ZCompletedCampaignPage = pageOf(ZCompletedCampaign);
