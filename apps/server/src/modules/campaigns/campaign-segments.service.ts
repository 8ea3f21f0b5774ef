import { pageMeta } from '@herald/shared/common/pagination.schemas';
import { message } from '@herald/shared/common/messages';
import { SEGMENT_SOURCE_STATUSES, type TCompletedCampaign } from '@herald/shared/campaigns/campaign-segments.schemas';
import type { TSegmentConditionInput } from '@herald/shared/segments/segment-conditions';
import {
  type TCreateSegmentRequest,
  type TSegment,
  ZCreateSegmentRequest,
} from '@herald/shared/segments/segments.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import type { CampaignSegmentsRepository } from './campaign-segments.repository.ts';

/** What the segments module does for create-segment: the audience (or its child) it makes. */
export type MakeSegment = (user: AuthUser, input: TCreateSegmentRequest, parentId: number | null) => Promise<TSegment>;

/** Campaigns whose sending is over: the choices of the audience filter `campaigns` (decision 039). */
const FINISHED = ['completed', 'failed'] as const;

export function createCampaignSegments(deps: { repo: CampaignSegmentsRepository; makeSegment: MakeSegment }) {
  return {
    async completed(user: AuthUser, query: { page: number; limit: number; search?: string }) {
      const { rows, total } = await deps.repo.findPageByStatus(user.teamId, FINISHED, {
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        search: query.search || undefined,
      });
      const data: TCompletedCampaign[] = rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        status: r.status,
        completed_at: r.completed_at ? r.completed_at.toISOString() : null,
      }));
      return { data, meta: pageMeta(query.page, query.limit, total) };
    },

    /**
     * A segment of the campaign's leads with an SMS status and/or an engagement: the same
     * conditions a user could set by hand (campaigns eq scopes the other two), so the segment stays
     * an ordinary one. Another team's campaign or audience is not found and nothing is made.
     */
    async create(
      user: AuthUser,
      campaignId: number,
      input: {
        audience_id?: number | null;
        name: string;
        ignore_new_leads: boolean;
        sms_status?: string | null;
        engagement?: string | null;
      },
    ) {
      const status = await deps.repo.findStatus(user.teamId, campaignId);
      if (!status) throw new AppError('not_found', message('campaign_not_found'));
      if (!input.sms_status && !input.engagement) {
        throw AppError.field('sms_status', 'campaign_segment_filter_required');
      }
      if (!(SEGMENT_SOURCE_STATUSES as readonly string[]).includes(status)) {
        throw AppError.field('status', 'campaign_segment_unavailable');
      }
      const filters: TSegmentConditionInput[] = [{ id: 'campaigns', operator: 'eq', values: [String(campaignId)] }];
      if (input.sms_status) filters.push({ id: 'sms_status', operator: 'eq', values: [input.sms_status] });
      if (input.engagement) filters.push({ id: 'engagement', operator: 'eq', values: [input.engagement] });
      return deps.makeSegment(
        user,
        ZCreateSegmentRequest.parse({ name: input.name, ignore_new_leads: input.ignore_new_leads, filters }),
        input.audience_id ?? null,
      );
    },
  };
}

export type CampaignSegments = ReturnType<typeof createCampaignSegments>;
