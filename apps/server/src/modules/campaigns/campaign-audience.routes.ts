import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCampaignAudienceQuery,
  ZCampaignFiguresList,
  ZCampaignFiguresQuery,
  ZCampaignRecipientPage,
} from '@herald/shared/campaigns/campaign-audience.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { CampaignAudienceService } from './campaign-audience.service.ts';

/** `GET campaigns/{id}/leads` (spec section 7) and the list's figures; owners and admins only, as campaigns. */
export async function campaignAudienceRoutes(app: FastifyInstance, audience: CampaignAudienceService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('campaigns:read') };
  const tags = ['campaigns'];
  r.get(
    '/campaigns/:id/leads',
    {
      ...read,
      schema: {
        tags,
        params: ZIdParams,
        querystring: ZCampaignAudienceQuery,
        response: { 200: ZCampaignRecipientPage },
      },
    },
    (req) => audience.page(currentUser(req), req.params.id, req.query),
  );
  r.get(
    '/campaigns/results',
    { ...read, schema: { tags, querystring: ZCampaignFiguresQuery, response: { 200: ZCampaignFiguresList } } },
    (req) => audience.figures(currentUser(req), req.query.ids),
  );
}
