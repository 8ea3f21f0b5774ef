import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCampaignAudienceQuery,
  ZCampaignFiguresList,
  ZCampaignFiguresQuery,
  ZCampaignRecipientPage,
} from '@herald/shared/campaigns/campaign-audience.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { ZCampaignExportRequest } from '@herald/shared/campaigns/campaign-audience-export';
import { ZExport } from '@herald/shared/segments/segments.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { CampaignExportSource } from './campaign-audience-export.ts';
import type { CampaignExports } from './campaigns.deps.ts';
import type { CampaignAudienceService } from './campaign-audience.service.ts';

/** `GET campaigns/{id}/leads` (spec section 7) and the list's figures; owners and admins only, as campaigns. */
export async function campaignAudienceRoutes(
  app: FastifyInstance,
  audience: CampaignAudienceService,
  files?: { exports: CampaignExports; source: CampaignExportSource },
) {
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
  if (!files) return;
  // The audience as CSV or XLSX through the audiences' exports: progress in the processes popover.
  for (const format of ['csv', 'xlsx'] as const) {
    r.post(
      `/campaigns/:id/leads/${format}`,
      { ...read, schema: { tags, params: ZIdParams, body: ZCampaignExportRequest, response: { 202: ZExport } } },
      async (req, reply) => {
        const language = requestLanguage(req.headers['accept-language']);
        const started = await files.exports.startCampaign(
          currentUser(req),
          req.params.id,
          { ...req.body, format },
          language,
          files.source.require,
        );
        return reply.status(202).send(started);
      },
    );
  }
}
