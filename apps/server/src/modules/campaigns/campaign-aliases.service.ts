import type {
  TAddCampaignSegmentsRequest,
  TAddCampaignSourcesRequest,
} from '@herald/shared/campaigns/campaign-aliases.schemas';
import type { TCampaignAudience, TCampaignAudienceKind } from '@herald/shared/campaigns/campaigns.schemas';
import { message } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import type { CampaignAudiencesRepository } from './campaign-audiences.repository.ts';
import type { CampaignStepsService } from './campaign-steps.service.ts';

/** Which kinds each of the spec's names covers: segments, or sources with their lists. */
const KINDS = {
  segments: ['segment'],
  sources: ['source', 'list'],
} as const satisfies Record<string, readonly TCampaignAudienceKind[]>;
export type CampaignAliasName = keyof typeof KINDS;

/**
 * The spec's `campaigns/{id}/segments` and `/sources` (section 7) over the campaign's audiences:
 * the same rows, rules (audience only in draft), log entries and 404s as `/audiences`, each name
 * seeing and removing only its own kinds.
 */
export function createCampaignAliases(deps: { steps: CampaignStepsService; audiences: CampaignAudiencesRepository }) {
  const { steps, audiences } = deps;
  const only = (name: CampaignAliasName, rows: TCampaignAudience[]) =>
    rows.filter((r) => (KINDS[name] as readonly string[]).includes(r.kind));

  return {
    async list(user: AuthUser, name: CampaignAliasName, campaignId: number) {
      return only(name, await steps.audiences(user, campaignId));
    },

    async addSegments(user: AuthUser, campaignId: number, body: TAddCampaignSegmentsRequest) {
      return only(
        'segments',
        await steps.addAudiences(user, campaignId, { kind: 'segment', ref_ids: body.segment_ids }),
      );
    },

    /** Sources and lists: the lists are looked for first, so an unknown one changes nothing. */
    async addSources(user: AuthUser, campaignId: number, body: TAddCampaignSourcesRequest) {
      await steps.audiences(user, campaignId);
      if (body.source_ids.length + body.list_ids.length === 0)
        throw AppError.field('source_ids', 'campaign_audience_required');
      const lists = [...new Set(body.list_ids)];
      if (lists.length > 0 && (await audiences.existing(user.teamId, 'list', lists)).size !== lists.length)
        throw new AppError('not_found', message('list_not_found'));
      if (body.source_ids.length > 0)
        await steps.addAudiences(user, campaignId, { kind: 'source', ref_ids: body.source_ids });
      if (lists.length > 0) await steps.addAudiences(user, campaignId, { kind: 'list', ref_ids: lists });
      return this.list(user, 'sources', campaignId);
    },

    /** `audienceId` is the row's id as listed; a row of the other name's kinds is not found here. */
    async remove(user: AuthUser, name: CampaignAliasName, campaignId: number, audienceId: number) {
      await steps.audiences(user, campaignId);
      const row = (await audiences.refs(user.teamId, campaignId)).find((r) => r.id === audienceId);
      if (!row || !(KINDS[name] as readonly string[]).includes(row.kind))
        throw new AppError('not_found', message('campaign_audience_not_found'));
      return steps.removeAudience(user, campaignId, audienceId);
    },
  };
}

export type CampaignAliases = ReturnType<typeof createCampaignAliases>;
