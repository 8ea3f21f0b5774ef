import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { ZDone, done } from '@herald/shared/common/messages';
import {
  ZLookup,
  ZLookupCreateBody,
  ZLookupIdsBody,
  ZLookupListQuery,
  ZLookupPage,
  ZLookupPreview,
  ZLookupPreviewBody,
  ZLookupStatusBody,
  ZLookupStatusSummary,
  ZLookupsAnswer,
  ZLookupUpdateBody,
} from '@herald/shared/lookups/lookups.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { LookupsService } from './lookups.service.ts';

/**
 * The spec's lookup calls (section 7) under `/api`. Lookups are paid and hidden from operators
 * with the rest of the menu: reads need `lookups:read`, everything else `lookups:manage`.
 */
export async function lookupsRoutes(app: FastifyInstance, s: LookupsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('lookups:read') };
  const manage = { preHandler: app.authorize('lookups:manage') };
  const tags = ['lookups'];
  const params = ZIdParams;

  r.get(
    '/lookup',
    { ...read, schema: { tags, querystring: ZLookupListQuery, response: { 200: ZLookupPage } } },
    (req) => s.page(currentUser(req), req.query),
  );
  r.get('/lookup/status', { ...read, schema: { tags, response: { 200: ZLookupStatusSummary } } }, (req) =>
    s.summary(currentUser(req)),
  );
  r.post(
    '/lookup/preview',
    { ...manage, schema: { tags, body: ZLookupPreviewBody, response: { 200: ZLookupPreview } } },
    (req) => s.preview(currentUser(req), req.body),
  );
  r.post(
    '/lookup',
    { ...manage, schema: { tags, body: ZLookupCreateBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.create(currentUser(req), req.body),
  );
  r.put(
    '/lookup/:id',
    { ...manage, schema: { tags, params, body: ZLookupUpdateBody, response: { 200: ZLookup } } },
    (req) => s.update(currentUser(req), req.params.id, req.body),
  );
  r.post(
    '/lookup/:id/status',
    { ...manage, schema: { tags, params, body: ZLookupStatusBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.setStatus(currentUser(req), req.params.id, req.body.status as 1 | 2),
  );
  r.delete('/lookup/:id', { ...manage, schema: { tags, params, response: { 200: ZDone } } }, async (req) => {
    await s.remove(currentUser(req), req.params.id);
    return done('lookup_deleted');
  });
  r.post(
    '/lookup-start',
    { ...manage, schema: { tags, body: ZLookupIdsBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.startMany(currentUser(req), req.body.ids),
  );
  r.post(
    '/lookup-stop',
    { ...manage, schema: { tags, body: ZLookupIdsBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.stopMany(currentUser(req), req.body.ids),
  );
  r.post(
    '/sources/lookup',
    { ...manage, schema: { tags, body: ZLookupIdsBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.fromSelection(currentUser(req), 'sources', req.body.ids),
  );
  r.post(
    '/sources/lists/lookup',
    { ...manage, schema: { tags, body: ZLookupIdsBody, response: { 200: ZLookupsAnswer } } },
    (req) => s.fromSelection(currentUser(req), 'lists', req.body.ids),
  );
}
