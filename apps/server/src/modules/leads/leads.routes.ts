import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZBatchIdsRequest,
  ZBatchResult,
  ZBatchStatusRequest,
  ZCreateLeadRequest,
  type TLeadPageQuery,
  ZLead,
  ZLeadCampaigns,
  ZLeadDuplicates,
  ZLeadLogPage,
  ZLeadPage,
  ZLeadPageQuery,
  ZValueRequest,
} from '@herald/shared/leads/leads.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { z } from 'zod';
import { messageText, ZMessage } from '@herald/shared/common/messages';
import { currentUser } from '../../auth/authenticate.ts';
import type { VersionedCache } from '../../db/versioned-cache.ts';
import { sendCachedJson } from '../../http/cached-json.ts';
import type { LeadValuesService, ValueKind } from './lead-values.service.ts';
import type { LeadsService } from './leads.service.ts';

const ZDeleted = z.object({ deleted: z.number() });
const ZLogQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => [20, 50, 100].includes(n), messageText('page_size_invalid'))
    .default(20),
});
const ZLeadPlaces = z.object({
  sources: z.array(z.object({ id: z.number(), name: z.string() })),
  lists: z.array(z.object({ id: z.number(), name: z.string(), source_id: z.number() })),
});
const VALUE_KINDS: ValueKind[] = ['lead-values', 'lead-phones', 'lead-emails'];

/** `/api/leads`, `/api/lists/{id}/leads` and the value endpoints. */
export async function leadsRoutes(
  app: FastifyInstance,
  { leads, values, pages }: { leads: LeadsService; values: LeadValuesService; pages: VersionedCache },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['leads'];
  const read = { preHandler: app.authorize('leads:read') };
  const manage = { preHandler: app.authorize('leads:manage') };
  const update = { preHandler: app.authorize('leads:update') };

  // Unsearched pages (what every lead table opens on) are served from the versioned cache: a
  // change to the team's leads bumps the version, so the next request reads them again.
  const page = async (req: FastifyRequest, reply: FastifyReply, query: TLeadPageQuery, listId?: number) => {
    const user = currentUser(req);
    if (query.search?.trim()) return leads.page(user, query, listId);
    const only = query.duplicates === '1' ? 'duplicates' : 'all';
    const key = `${user.teamId}:${listId ?? 'all'}:${only}:${query.page}:${query.limit}:${JSON.stringify(query.order ?? [])}`;
    return sendCachedJson(reply, pages, key, user.dataVersion, () => leads.page(user, query, listId));
  };
  r.get(
    '/leads',
    { ...read, schema: { tags, querystring: ZLeadPageQuery, response: { 200: ZLeadPage } } },
    (req, reply) => page(req, reply, req.query),
  );
  r.get(
    '/lists/:id/leads',
    { ...read, schema: { tags, params: ZIdParams, querystring: ZLeadPageQuery, response: { 200: ZLeadPage } } },
    (req, reply) => page(req, reply, req.query, req.params.id),
  );
  r.post(
    '/leads',
    {
      preHandler: app.authorize('leads:create'),
      schema: { tags, body: ZCreateLeadRequest, response: { 201: ZLead.extend({ info: z.array(ZMessage) }) } },
    },
    async (req, reply) => reply.status(201).send(await leads.create(currentUser(req), req.body)),
  );
  r.delete(
    '/leads/batch',
    { ...manage, schema: { tags, body: ZBatchIdsRequest, response: { 200: ZDeleted } } },
    async (req) => ({
      deleted: await leads.delete(currentUser(req), req.body.ids),
    }),
  );
  r.put(
    '/leads/batch-status',
    { ...manage, schema: { tags, body: ZBatchStatusRequest, response: { 200: ZBatchResult } } },
    (req) => leads.setStatus(currentUser(req), req.body.ids, req.body.status),
  );
  r.get('/leads/:id', { ...read, schema: { tags, params: ZIdParams, response: { 200: ZLead } } }, (req) =>
    leads.get(currentUser(req), req.params.id),
  );
  r.get(
    '/leads/:id/log',
    { ...read, schema: { tags, params: ZIdParams, querystring: ZLogQuery, response: { 200: ZLeadLogPage } } },
    (req) => leads.log(currentUser(req), req.params.id, req.query.page, req.query.limit),
  );
  // Operators see no campaigns (spec section 6): the chips are for those who may open them.
  r.get(
    '/leads/:id/campaigns',
    {
      preHandler: app.authorize('campaigns:read'),
      schema: { tags, params: ZIdParams, response: { 200: ZLeadCampaigns } },
    },
    (req) => leads.campaigns(currentUser(req), req.params.id),
  );
  r.get(
    '/leads/:id/duplicates',
    { ...read, schema: { tags, params: ZIdParams, response: { 200: ZLeadDuplicates } } },
    (req) => leads.duplicates(currentUser(req), req.params.id),
  );
  r.get('/leads/:id/sources', { ...read, schema: { tags, params: ZIdParams, response: { 200: ZLeadPlaces } } }, (req) =>
    leads.sources(currentUser(req), req.params.id),
  );
  r.delete(
    '/leads/:id',
    { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZDeleted } } },
    async (req) => ({
      deleted: await leads.delete(currentUser(req), [req.params.id]),
    }),
  );

  for (const kind of VALUE_KINDS) {
    r.post(
      `/leads/:id/lead-attributes/:attrId/${kind}`,
      {
        ...update,
        schema: {
          tags,
          params: ZIdParams.extend({ attrId: ZIdParams.shape.id }),
          body: ZValueRequest,
          response: { 201: ZLead },
        },
      },
      async (req, reply) => {
        const user = currentUser(req);
        await values.add(user, req.params.id, req.params.attrId, kind, req.body.value);
        return reply.status(201).send(await leads.get(user, req.params.id));
      },
    );
    r.put(
      `/${kind}/:id`,
      { ...update, schema: { tags, params: ZIdParams, body: ZValueRequest, response: { 200: ZLead } } },
      async (req) => {
        const user = currentUser(req);
        return leads.get(user, await values.update(user, req.params.id, kind, req.body.value));
      },
    );
    // Deleting a value is a lead action, which operators do not have (decision 012).
    r.delete(
      `/${kind}/:id`,
      { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZLead } } },
      async (req) => {
        const user = currentUser(req);
        return leads.get(user, await values.remove(user, req.params.id, kind));
      },
    );
  }
}
