import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIds, ZPageQuery } from '@herald/shared/common/pagination.schemas';
import {
  ZCreateListRequest,
  ZCreateSourceRequest,
  ZLeadCounts,
  ZList,
  ZListPage,
  ZSource,
  ZSourcePage,
  ZSourcesTotal,
  ZSourcesWithLists,
  ZUpdateListRequest,
  ZUpdateSourceRequest,
} from '@herald/shared/sources/sources.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import type { SourcesService } from './sources.service.ts';

const ZDeleted = z.object({ deleted: z.number() });

/** `/api/sources`, `/api/sources/lists`, `/api/lists`, `/api/all-sources-with-lists`. */
export async function sourcesRoutes(app: FastifyInstance, { sources }: { sources: SourcesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('sources:read') };
  const manage = { preHandler: app.authorize('sources:manage') };
  const tags = ['sources'];
  const team = (request: { user: unknown }) => currentUser(request as never).teamId;

  r.get('/sources', { ...read, schema: { tags, querystring: ZPageQuery, response: { 200: ZSourcePage } } }, (req) =>
    sources.page(team(req), req.query),
  );
  r.get('/sources/total', { ...read, schema: { tags, response: { 200: ZSourcesTotal } } }, (req) =>
    sources.total(team(req)),
  );
  r.post(
    '/sources',
    { ...manage, schema: { tags, body: ZCreateSourceRequest, response: { 201: ZSource } } },
    async (req, reply) => reply.status(201).send(await sources.create(team(req), req.body.name)),
  );
  r.delete(
    '/sources/batch',
    { ...manage, schema: { tags, querystring: z.object({ ids: ZIds }), response: { 200: ZDeleted } } },
    async (req) => ({ deleted: await sources.delete(team(req), req.query.ids) }),
  );
  r.get(
    '/all-sources-with-lists',
    {
      ...read,
      schema: {
        tags,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
        response: { 200: ZSourcesWithLists },
      },
    },
    async (req) => ({
      data: await sources.allWithLists(team(req), req.query.limit),
    }),
  );

  // Lists (static paths first: /sources/lists/... must not be read as a source id).
  r.get(
    '/lists',
    {
      ...read,
      schema: {
        tags: ['lists'],
        querystring: ZPageQuery.extend({ filter: z.object({ source_id: ZIds.optional() }).optional() }),
        response: { 200: ZListPage },
      },
    },
    (req) => sources.listPage(team(req), req.query.filter?.source_id, req.query),
  );
  r.delete(
    '/sources/lists/batch',
    { ...manage, schema: { tags: ['lists'], querystring: z.object({ ids: ZIds }), response: { 200: ZDeleted } } },
    async (req) => ({ deleted: await sources.deleteLists(team(req), req.query.ids) }),
  );
  r.get(
    '/sources/lists/:id',
    { ...read, schema: { tags: ['lists'], params: ZIdParams, response: { 200: ZList } } },
    (req) => sources.getList(team(req), req.params.id),
  );
  r.get(
    '/sources/lists/:id/aggregations',
    { ...read, schema: { tags: ['lists'], params: ZIdParams, response: { 200: ZLeadCounts } } },
    (req) => sources.listAggregations(team(req), req.params.id),
  );
  r.put(
    '/sources/lists/:id',
    { ...manage, schema: { tags: ['lists'], params: ZIdParams, body: ZUpdateListRequest, response: { 200: ZList } } },
    (req) => sources.updateList(team(req), req.params.id, req.body),
  );
  r.delete(
    '/sources/lists/:id',
    { ...manage, schema: { tags: ['lists'], params: ZIdParams, response: { 200: ZDeleted } } },
    async (req) => ({
      deleted: await sources.deleteLists(team(req), [req.params.id]),
    }),
  );

  r.get('/sources/:id', { ...read, schema: { tags, params: ZIdParams, response: { 200: ZSource } } }, (req) =>
    sources.get(team(req), req.params.id),
  );
  r.get(
    '/sources/:id/aggregations',
    { ...read, schema: { tags, params: ZIdParams, response: { 200: ZLeadCounts } } },
    (req) => sources.aggregations(team(req), req.params.id),
  );
  r.get(
    '/sources/:id/lists',
    { ...read, schema: { tags: ['lists'], params: ZIdParams, querystring: ZPageQuery, response: { 200: ZListPage } } },
    (req) => sources.sourceLists(team(req), req.params.id, req.query),
  );
  r.post(
    '/sources/:id/lists',
    { ...manage, schema: { tags: ['lists'], params: ZIdParams, body: ZCreateListRequest, response: { 201: ZList } } },
    async (req, reply) =>
      reply.status(201).send(await sources.createList(team(req), req.params.id, req.body.name, req.body.status)),
  );
  r.put(
    '/sources/:id',
    { ...manage, schema: { tags, params: ZIdParams, body: ZUpdateSourceRequest, response: { 200: ZSource } } },
    (req) => sources.update(team(req), req.params.id, req.body),
  );
  r.delete(
    '/sources/:id',
    { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZDeleted } } },
    async (req) => ({
      deleted: await sources.delete(team(req), [req.params.id]),
    }),
  );
}
