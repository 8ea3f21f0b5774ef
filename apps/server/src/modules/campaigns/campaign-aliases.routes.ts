import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddCampaignSegmentsRequest,
  ZAddCampaignSourcesRequest,
} from '@herald/shared/campaigns/campaign-aliases.schemas';
import { ZCampaignAudience } from '@herald/shared/campaigns/campaigns.schemas';
import { ZId, ZIdParams } from '@herald/shared/common/id.schemas';
import { ZDone } from '@herald/shared/common/messages';
import { currentUser } from '../../auth/authenticate.ts';
import type { CampaignAliases } from './campaign-aliases.service.ts';

/** The spec's `campaigns/{id}/segments` and `campaigns/{id}/sources` (section 7), with their removal. */
export async function campaignAliasRoutes(app: FastifyInstance, aliases: CampaignAliases) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('campaigns:read') };
  const manage = { preHandler: app.authorize('campaigns:manage') };
  const tags = ['campaigns'];
  const params = ZIdParams;
  const rows = { 200: z.array(ZCampaignAudience) };
  const one = z.object({ id: ZId, audienceId: ZId });

  for (const name of ['segments', 'sources'] as const) {
    r.get(`/campaigns/:id/${name}`, { ...read, schema: { tags, params, response: rows } }, (req) =>
      aliases.list(currentUser(req), name, req.params.id),
    );
    r.delete(
      `/campaigns/:id/${name}/:audienceId`,
      { ...manage, schema: { tags, params: one, response: { 200: ZDone } } },
      (req) => aliases.remove(currentUser(req), name, req.params.id, req.params.audienceId),
    );
  }
  r.post(
    '/campaigns/:id/segments',
    { ...manage, schema: { tags, params, body: ZAddCampaignSegmentsRequest, response: rows } },
    (req) => aliases.addSegments(currentUser(req), req.params.id, req.body),
  );
  r.post(
    '/campaigns/:id/sources',
    { ...manage, schema: { tags, params, body: ZAddCampaignSourcesRequest, response: rows } },
    (req) => aliases.addSources(currentUser(req), req.params.id, req.body),
  );
}
