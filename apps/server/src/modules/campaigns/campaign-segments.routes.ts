import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCompletedCampaignPage,
  ZCompletedCampaignsQuery,
  ZCreateCampaignSegmentRequest,
} from '@herald/shared/campaigns/campaign-segments.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { ZSegment } from '@herald/shared/segments/segments.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { CampaignSegments } from './campaign-segments.service.ts';

/** The spec's `completed-campaigns` and `campaigns/{id}/create-segment` (section 7, decision 039). */
export async function campaignSegmentRoutes(app: FastifyInstance, s: CampaignSegments) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['campaigns'];
  r.get(
    '/completed-campaigns',
    {
      preHandler: app.authorize('campaigns:read'),
      schema: { tags, querystring: ZCompletedCampaignsQuery, response: { 200: ZCompletedCampaignPage } },
    },
    (req) => s.completed(currentUser(req), req.query),
  );
  r.post(
    '/campaigns/:id/create-segment',
    {
      preHandler: app.authorize('campaigns:manage'),
      schema: { tags, params: ZIdParams, body: ZCreateCampaignSegmentRequest, response: { 201: ZSegment } },
    },
    async (req, reply) => reply.code(201).send(await s.create(currentUser(req), req.params.id, req.body)),
  );
}
