import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { done } from '@herald/shared/common/messages';
import {
  ZDoneResponse,
  ZShortUrlDomainAccess,
  ZShortUrlLinkHost,
  ZShortUrlDomainList,
  ZShortUrlDomainResponse,
  ZStoreShortUrlDomainRequest,
  ZUpdateShortUrlDomainRequest,
} from '@herald/shared/short-links/short-links.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { ShortUrlDomainsService } from './short-url-domains.service.ts';

/** `/api/short-url-domains…` as the spec's section 7 names them; the owner's and admins' settings. */
export async function shortUrlDomainsRoutes(app: FastifyInstance, { domains }: { domains: ShortUrlDomainsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['short-url-domains'];
  const team = (req: FastifyRequest) => currentUser(req).teamId;
  const manage = app.authorize('settings:manage');

  r.get('/short-url-domains', { preHandler: manage, schema: { tags, response: { 200: ZShortUrlDomainList } } }, (req) =>
    domains.list(team(req)),
  );
  // Everyone who sends (operators too) sees what a link will cost in the composer.
  r.get(
    '/short-url-domains/link-host',
    { preHandler: app.authorize('gateways:send'), schema: { tags, response: { 200: ZShortUrlLinkHost } } },
    (req) => domains.linkHost(team(req)),
  );
  r.get(
    '/short-url-domains/has-access',
    { preHandler: manage, schema: { tags, response: { 200: ZShortUrlDomainAccess } } },
    async (req) => ({ access: await domains.hasAccess(team(req)) }),
  );
  r.post(
    '/short-url-domains',
    {
      preHandler: manage,
      schema: { tags, body: ZStoreShortUrlDomainRequest, response: { 201: ZShortUrlDomainResponse } },
    },
    async (req, reply) =>
      reply.status(201).send({ ...done('short_url_domain_created'), data: await domains.store(team(req), req.body) }),
  );
  r.put(
    '/short-url-domains/:id',
    {
      preHandler: manage,
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateShortUrlDomainRequest,
        response: { 200: ZShortUrlDomainResponse },
      },
    },
    async (req) => ({
      ...done('short_url_domain_updated'),
      data: await domains.update(team(req), req.params.id, req.body),
    }),
  );
  // "Verify now": asks the domain for its proof at once (the hourly check does it too).
  r.post(
    '/short-url-domains/:id/verify',
    { preHandler: manage, schema: { tags, params: ZIdParams, response: { 200: ZShortUrlDomainResponse } } },
    async (req) => ({
      ...done('short_url_domain_verified'),
      data: await domains.verify(team(req), req.params.id),
    }),
  );
  r.delete(
    '/short-url-domains/:id',
    { preHandler: manage, schema: { tags, params: ZIdParams, response: { 200: ZDoneResponse } } },
    async (req) => {
      await domains.remove(team(req), req.params.id);
      return done('short_url_domain_deleted');
    },
  );
}
