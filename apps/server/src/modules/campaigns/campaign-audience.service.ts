import {
  CAMPAIGN_AUDIENCE_SORT_FIELDS,
  type TCampaignAudienceQuery,
  type TCampaignFigures,
  type TCampaignRecipientPage,
} from '@herald/shared/campaigns/campaign-audience.schemas';
import { percentOf } from '@herald/shared/campaigns/campaign-results';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import { pageArgs } from '../../http/paging.ts';
import type { CampaignAudienceRepository } from './campaign-audience.repository.ts';
import { toRecipients } from './campaign-recipient-rows.ts';
import type { CampaignStepsRepository } from './campaign-steps.repository.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';

/**
 * The campaign audience (decision 038): who the campaign reached and what each step did for each
 * of them, by the shared bucket rules (`campaign-results.ts`), and the campaigns list's figures.
 */
export function createCampaignAudienceService(deps: {
  repo: CampaignsRepository;
  steps: CampaignStepsRepository;
  audience: CampaignAudienceRepository;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async page(user: AuthUser, campaignId: number, query: TCampaignAudienceQuery): Promise<TCampaignRecipientPage> {
      if (!(await deps.repo.find(user.teamId, campaignId))) throw notFound();
      const args = pageArgs(query, CAMPAIGN_AUDIENCE_SORT_FIELDS, { field: 'lead_id', dir: 'asc' });
      const [steps, { rows, total }] = await Promise.all([
        deps.steps.ofCampaign(user.teamId, campaignId),
        deps.audience.page(user.teamId, campaignId, args),
      ]);
      const messages = await deps.audience.messagesOf(
        user.teamId,
        campaignId,
        rows.map((r) => r.lead_id),
      );
      const data = toRecipients(
        rows,
        steps.map((s) => ({ id: Number(s.id), position: s.position })),
        messages,
        now(),
      );
      return {
        data,
        meta: pageMeta(query.page, query.limit, total),
        steps: steps.map((s) => ({ id: Number(s.id), position: s.position, name: `Step ${s.position}` })),
      };
    },

    /** Figures of the team's campaigns among `ids`; another team's ids are simply not answered. */
    async figures(user: AuthUser, ids: number[]): Promise<{ data: TCampaignFigures[] }> {
      const rows = await deps.audience.figures(user.teamId, ids);
      return {
        data: rows.map((r) => ({
          id: r.id,
          records: r.records,
          amount_sent: r.sent,
          amount_delivered: r.delivered,
          amount_clicked: r.clicked,
          percentage_sent_of_all_steps: percentOf(r.sent, r.records * r.smsSteps),
          percentage_delivered: percentOf(r.delivered, r.sent),
          percentage_clicked: percentOf(r.clicked, r.delivered),
          actual_cost: r.cost,
        })),
      };
    },
  };
}

export type CampaignAudienceService = ReturnType<typeof createCampaignAudienceService>;
