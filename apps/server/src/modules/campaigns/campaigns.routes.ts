import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddCampaignAudiencesRequest,
  ZCampaign,
  ZCampaignAggregations,
  ZCampaignAudience,
  ZCampaignBatchRequest,
  ZCampaignBatchResult,
  ZCampaignBatchStatusRequest,
  ZCampaignListQuery,
  ZCampaignLogPage,
  ZCampaignPage,
  ZCampaignPreview,
  ZCampaignStatusRequest,
  ZCampaignStep,
  ZCreateCampaignRequest,
  ZCreateCampaignStepRequest,
  ZUpdateCampaignRequest,
  ZUpdateCampaignStepRequest,
} from '@herald/shared/campaigns/campaigns.schemas';
import { ZCampaignTestRequest, ZCampaignTestResponse } from '@herald/shared/campaigns/campaign-test.schemas';
import { ZId, ZIdParams } from '@herald/shared/common/id.schemas';
import { ZDone } from '@herald/shared/common/messages';
import { ZPageQuery } from '@herald/shared/common/pagination.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { CampaignPreview } from './campaign-preview.service.ts';
import { campaignAliasRoutes } from './campaign-aliases.routes.ts';
import type { CampaignAliases } from './campaign-aliases.service.ts';
import type { CampaignStepsService } from './campaign-steps.service.ts';
import type { CampaignTestSend } from './campaign-test-send.service.ts';
import type { CampaignsService } from './campaigns.service.ts';
import type { CampaignLogs } from './index.ts';

/**
 * The spec's campaign calls (section 6) under `/api`. Operators see no campaigns: every call asks
 * for `campaigns:read` or `campaigns:manage`, which only owners and admins hold.
 */
export async function campaignsRoutes(
  app: FastifyInstance,
  s: {
    campaigns: CampaignsService;
    steps: CampaignStepsService;
    preview: CampaignPreview;
    logs: CampaignLogs;
    testSend: CampaignTestSend;
    aliases: CampaignAliases;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('campaigns:read') };
  const manage = { preHandler: app.authorize('campaigns:manage') };
  const tags = ['campaigns'];
  const params = ZIdParams;

  r.get(
    '/campaigns',
    { ...read, schema: { tags, querystring: ZCampaignListQuery, response: { 200: ZCampaignPage } } },
    (req) => s.campaigns.page(currentUser(req), req.query),
  );
  r.get('/campaigns/aggregations', { ...read, schema: { tags, response: { 200: ZCampaignAggregations } } }, (req) =>
    s.campaigns.aggregations(currentUser(req)),
  );
  r.post(
    '/campaigns',
    { ...manage, schema: { tags, body: ZCreateCampaignRequest.default({}), response: { 201: ZCampaign } } },
    async (req, reply) => {
      // The browser's zone, which the web sends, is the default of a new campaign.
      const zone = req.headers['x-timezone'];
      const created = await s.campaigns.create(currentUser(req), req.body, typeof zone === 'string' ? zone : undefined);
      return reply.status(201).send(created);
    },
  );
  r.delete(
    '/campaigns/batch',
    { ...manage, schema: { tags, body: ZCampaignBatchRequest, response: { 200: ZCampaignBatchResult } } },
    (req) => s.campaigns.deleteMany(currentUser(req), req.body.ids),
  );
  r.put(
    '/campaigns/batch-status',
    { ...manage, schema: { tags, body: ZCampaignBatchStatusRequest, response: { 200: ZCampaignBatchResult } } },
    (req) => s.campaigns.setStatusMany(currentUser(req), req.body.ids, req.body.status),
  );
  r.get('/campaigns/:id', { ...read, schema: { tags, params, response: { 200: ZCampaign } } }, (req) =>
    s.campaigns.get(currentUser(req), req.params.id),
  );
  r.put(
    '/campaigns/:id',
    { ...manage, schema: { tags, params, body: ZUpdateCampaignRequest, response: { 200: ZCampaign } } },
    (req) => s.campaigns.update(currentUser(req), req.params.id, req.body),
  );
  r.delete('/campaigns/:id', { ...manage, schema: { tags, params, response: { 200: ZDone } } }, (req) =>
    s.campaigns.delete(currentUser(req), req.params.id),
  );
  r.put(
    '/campaigns/:id/status',
    { ...manage, schema: { tags, params, body: ZCampaignStatusRequest, response: { 200: ZCampaign } } },
    (req) => s.campaigns.setStatus(currentUser(req), req.params.id, req.body.status),
  );
  r.post(
    '/campaigns/:id/duplicate',
    { ...manage, schema: { tags, params, response: { 201: ZCampaign } } },
    async (req, reply) => reply.status(201).send(await s.campaigns.duplicate(currentUser(req), req.params.id)),
  );
  r.post(
    '/campaigns/:id/test',
    { ...manage, schema: { tags, params, body: ZCampaignTestRequest, response: { 200: ZCampaignTestResponse } } },
    (req) => s.testSend.send(currentUser(req), req.params.id, req.body, idempotencyKeyOf(req.headers)),
  );
  r.get('/campaigns/:id/preview', { ...read, schema: { tags, params, response: { 200: ZCampaignPreview } } }, (req) =>
    s.preview.preview(currentUser(req), req.params.id),
  );

  r.get(
    '/campaigns/:id/campaign-steps',
    { ...read, schema: { tags, params, response: { 200: z.array(ZCampaignStep) } } },
    (req) => s.steps.list(currentUser(req), req.params.id),
  );
  r.post(
    '/campaigns/:id/campaign-steps',
    { ...manage, schema: { tags, params, body: ZCreateCampaignStepRequest, response: { 201: ZCampaignStep } } },
    async (req, reply) => reply.status(201).send(await s.steps.create(currentUser(req), req.params.id, req.body)),
  );
  r.put(
    '/campaign-steps/:id',
    { ...manage, schema: { tags, params, body: ZUpdateCampaignStepRequest, response: { 200: ZCampaignStep } } },
    (req) => s.steps.update(currentUser(req), req.params.id, req.body),
  );
  r.delete('/campaign-steps/:id', { ...manage, schema: { tags, params, response: { 200: ZDone } } }, (req) =>
    s.steps.delete(currentUser(req), req.params.id),
  );

  r.get(
    '/campaigns/:id/audiences',
    { ...read, schema: { tags, params, response: { 200: z.array(ZCampaignAudience) } } },
    (req) => s.steps.audiences(currentUser(req), req.params.id),
  );
  r.post(
    '/campaigns/:id/audiences',
    {
      ...manage,
      schema: { tags, params, body: ZAddCampaignAudiencesRequest, response: { 200: z.array(ZCampaignAudience) } },
    },
    (req) => s.steps.addAudiences(currentUser(req), req.params.id, req.body),
  );
  r.delete(
    '/campaigns/:id/audiences/:audienceId',
    { ...manage, schema: { tags, params: z.object({ id: ZId, audienceId: ZId }), response: { 200: ZDone } } },
    (req) => s.steps.removeAudience(currentUser(req), req.params.id, req.params.audienceId),
  );

  await campaignAliasRoutes(app, s.aliases);

  r.get(
    '/campaigns/:id/campaign-logs',
    {
      ...read,
      schema: {
        tags,
        params,
        querystring: ZPageQuery.pick({ page: true, limit: true }),
        response: { 200: ZCampaignLogPage },
      },
    },
    (req) => s.logs(currentUser(req), req.params.id, req.query),
  );
}

/** A client's key for a retried test send (as the single SMS reads it): the retry sends nothing more. */
function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  return key && /^[\w.:-]{8,80}$/.test(key) ? key : null;
}
