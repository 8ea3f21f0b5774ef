import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPageQuery } from '@herald/shared/common/pagination.schemas';
import { ZLeadPage } from '@herald/shared/leads/leads.schemas';
import {
  ZBatchSegmentIds,
  ZCloneSegmentRequest,
  ZConditionsSyncRequest,
  ZCreateSegmentRequest,
  ZFiltersRequest,
  ZLeadSegments,
  ZLeadsCount,
  ZListsSyncRequest,
  ZSegment,
  ZSegmentAggregations,
  ZSegmentListQuery,
  ZSegmentPage,
  ZSourcesSyncRequest,
  ZUpdateSegmentRequest,
} from '@herald/shared/segments/segments.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import type { SegmentsService } from './segments.service.ts';

const ZDeleted = z.object({ deleted: z.number() });
const ZChildrenQuery = ZPageQuery.extend({ limit: z.coerce.number().int().min(1).max(100).default(15) });

/** `/api/segments…` (spec section 7, Segments). Operators have no audiences (section 6). */
export async function segmentsRoutes(app: FastifyInstance, { segments }: { segments: SegmentsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['segments'];
  const read = { preHandler: app.authorize('segments:read') };
  const manage = { preHandler: app.authorize('segments:manage') };
  const params = ZIdParams;

  r.get(
    '/segments',
    { ...read, schema: { tags, querystring: ZSegmentListQuery, response: { 200: ZSegmentPage } } },
    (req) => segments.list(currentUser(req), req.query),
  );
  r.post(
    '/segments',
    { ...manage, schema: { tags, body: ZCreateSegmentRequest, response: { 201: ZSegment } } },
    async (req, reply) => reply.status(201).send(await segments.create(currentUser(req), req.body)),
  );
  r.delete(
    '/segments/batch',
    { ...manage, schema: { tags, querystring: ZBatchSegmentIds, response: { 200: ZDeleted } } },
    async (req) => ({ deleted: await segments.delete(currentUser(req), req.query.ids) }),
  );
  r.get('/segments/:id', { ...read, schema: { tags, params, response: { 200: ZSegment } } }, (req) =>
    segments.get(currentUser(req), req.params.id),
  );
  r.get(
    '/segments/:id/aggregations',
    { ...read, schema: { tags, params, response: { 200: ZSegmentAggregations } } },
    (req) => segments.aggregations(currentUser(req), req.params.id),
  );
  r.get('/segments/:id/leads-count', { ...read, schema: { tags, params, response: { 200: ZLeadsCount } } }, (req) =>
    segments.leadsCount(currentUser(req), req.params.id),
  );
  r.get(
    '/segments/:id/leads',
    { ...read, schema: { tags, params, querystring: ZPageQuery, response: { 200: ZLeadPage } } },
    (req) => segments.leadsPage(currentUser(req), req.params.id, req.query),
  );
  r.get(
    '/leads/:id/segments',
    { ...read, schema: { tags: ['leads'], params, response: { 200: ZLeadSegments } } },
    (req) => segments.ofLead(currentUser(req), req.params.id),
  );
  r.get(
    '/segments/:id/segments',
    { ...read, schema: { tags, params, querystring: ZChildrenQuery, response: { 200: ZSegmentPage } } },
    (req) => segments.children(currentUser(req), req.params.id, req.query),
  );
  r.post(
    '/segments/:id/segments',
    { ...manage, schema: { tags, params, body: ZCreateSegmentRequest, response: { 201: ZSegment } } },
    async (req, reply) => reply.status(201).send(await segments.create(currentUser(req), req.body, req.params.id)),
  );
  r.post(
    '/segments/:id/clone',
    { ...manage, schema: { tags, params, body: ZCloneSegmentRequest.optional(), response: { 201: ZSegment } } },
    async (req, reply) => reply.status(201).send(await segments.clone(currentUser(req), req.params.id, req.body?.name)),
  );
  r.put(
    '/segments/:id',
    { ...manage, schema: { tags, params, body: ZUpdateSegmentRequest, response: { 200: ZSegment } } },
    (req) => segments.update(currentUser(req), req.params.id, req.body),
  );
  r.post(
    '/segments/:id/filters',
    { ...manage, schema: { tags, params, body: ZFiltersRequest, response: { 200: ZSegment } } },
    (req) => segments.setConditions(currentUser(req), req.params.id, req.body.filters),
  );
  r.post(
    '/segments/:id/sources/sync',
    { ...manage, schema: { tags, params, body: ZSourcesSyncRequest, response: { 200: ZSegment } } },
    (req) => segments.syncSources(currentUser(req), req.params.id, req.body.sources),
  );
  r.post(
    '/segments/:id/lists/sync',
    { ...manage, schema: { tags, params, body: ZListsSyncRequest, response: { 200: ZSegment } } },
    (req) => segments.syncLists(currentUser(req), req.params.id, req.body.lists),
  );
  r.post(
    '/segments/:id/conditions/sync',
    { ...manage, schema: { tags, params, body: ZConditionsSyncRequest, response: { 200: ZSegment } } },
    (req) => segments.syncConditions(currentUser(req), req.params.id, req.body.conditions, req.body.empties),
  );
  r.delete('/segments/:id', { ...manage, schema: { tags, params, response: { 200: ZDeleted } } }, async (req) => ({
    deleted: await segments.delete(currentUser(req), [req.params.id], true),
  }));
}
