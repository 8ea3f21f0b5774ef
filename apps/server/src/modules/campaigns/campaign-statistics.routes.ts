import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCampaignStatistic,
  ZStatisticLeadsPage,
  ZStatisticLeadsQuery,
} from '@herald/shared/campaigns/campaign-statistics.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { CampaignStatistics } from './campaign-statistics.service.ts';

/** The spec's `campaigns/{id}/statistic` and `campaigns/{id}/statistic-leads` (section 7; decision 037). */
export async function campaignStatisticsRoutes(app: FastifyInstance, statistics: CampaignStatistics) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('campaigns:read') };
  const tags = ['campaigns'];
  const params = ZIdParams;
  r.get(
    '/campaigns/:id/statistic',
    { ...read, schema: { tags, params, response: { 200: ZCampaignStatistic } } },
    (req) => statistics.statistic(currentUser(req), req.params.id),
  );
  r.get(
    '/campaigns/:id/statistic-leads',
    { ...read, schema: { tags, params, querystring: ZStatisticLeadsQuery, response: { 200: ZStatisticLeadsPage } } },
    (req) => statistics.leads(currentUser(req), req.params.id, req.query),
  );
}
