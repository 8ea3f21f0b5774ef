import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAdminAccess,
  ZAlphaName,
  ZAlphaNameList,
  ZReviewAlphaNameRequest,
  ZReviewedAlphaNameList,
  ZSetDefaultAlphaNameResponse,
  ZStoreAlphaNameRequest,
  ZStoreAlphaNameResponse,
} from '@herald/shared/alpha-names/alpha-names.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { done } from '@herald/shared/common/messages';
import { currentUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { AlphaNamesService } from './alpha-names.service.ts';

/**
 * `/api/alpha-names…` as the spec's section 7 names them, and the installation admins' review
 * under `/api/admin/alpha-names`, open only to the e-mails of `HERALD_ADMIN_EMAILS`.
 */
export async function alphaNamesRoutes(
  app: FastifyInstance,
  { alphaNames, isAdmin }: { alphaNames: AlphaNamesService; isAdmin: (email: string) => boolean },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['alpha-names'];
  const team = (req: FastifyRequest) => currentUser(req).teamId;
  const signedIn = app.authorize('profile:read');
  const admin = async (req: FastifyRequest, reply: FastifyReply) => {
    await signedIn(req, reply);
    if (!isAdmin(currentUser(req).email)) throw new AppError('forbidden');
  };

  r.get(
    '/alpha-names',
    { preHandler: app.authorize('alpha-names:read'), schema: { tags, response: { 200: ZAlphaNameList } } },
    (req) => alphaNames.list(team(req)),
  );
  r.post(
    '/alpha-names/store',
    {
      preHandler: app.authorize('alpha-names:manage'),
      schema: {
        tags,
        body: ZStoreAlphaNameRequest,
        response: { 200: ZStoreAlphaNameResponse, 201: ZStoreAlphaNameResponse },
      },
    },
    async (req, reply) => {
      const result = await alphaNames.store(team(req), req.body.name, requestLanguage(req.headers['accept-language']));
      if (result.status === 'limit') return { status: 'limit' as const, ...done('alpha_names_limit_reached') };
      return reply.status(201).send({ status: 'ok' as const, ...done('alpha_name_created'), data: result.data });
    },
  );
  r.put(
    '/alpha-names/default/:id',
    {
      preHandler: app.authorize('alpha-names:manage'),
      schema: { tags, params: ZIdParams, response: { 200: ZSetDefaultAlphaNameResponse } },
    },
    async (req) => ({
      ...done('alpha_name_default_changed'),
      data: await alphaNames.setDefault(team(req), req.params.id),
    }),
  );

  r.get('/admin/access', { preHandler: signedIn, schema: { tags, response: { 200: ZAdminAccess } } }, async (req) => ({
    admin: isAdmin(currentUser(req).email),
  }));
  r.get('/admin/alpha-names', { preHandler: admin, schema: { tags, response: { 200: ZReviewedAlphaNameList } } }, () =>
    alphaNames.reviewQueue(),
  );
  r.post(
    '/admin/alpha-names/:id/review',
    {
      preHandler: admin,
      schema: { tags, params: ZIdParams, body: ZReviewAlphaNameRequest, response: { 200: ZAlphaName } },
    },
    (req) => alphaNames.review(req.params.id, req.body.decision, currentUser(req).email),
  );
}
