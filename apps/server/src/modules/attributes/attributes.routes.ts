import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCreateAttributesRequest,
  ZLeadAttribute,
  ZLeadAttributeList,
  ZUpdateAttributeRequest,
} from '@herald/shared/attributes/attributes.schemas';
import { done, ZDone } from '@herald/shared/common/messages';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { AttributesService } from './attributes.service.ts';

/** `/api/lead-attributes`. */
export async function attributesRoutes(app: FastifyInstance, { attributes }: { attributes: AttributesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['attributes'];

  r.get(
    '/lead-attributes',
    { preHandler: app.authorize('attributes:read'), schema: { tags, response: { 200: ZLeadAttributeList } } },
    async (request) => ({
      data: await attributes.list(currentUser(request).teamId),
    }),
  );

  r.post(
    '/lead-attributes',
    {
      preHandler: app.authorize('attributes:manage'),
      schema: { tags, body: ZCreateAttributesRequest, response: { 201: ZLeadAttributeList } },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await attributes.create(
          currentUser(request).teamId,
          request.body,
          requestLanguage(request.headers['accept-language']),
        ),
      }),
  );

  r.put(
    '/lead-attributes/:id',
    {
      preHandler: app.authorize('attributes:manage'),
      schema: { tags, params: ZIdParams, body: ZUpdateAttributeRequest, response: { 200: ZLeadAttribute } },
    },
    (request) => attributes.update(currentUser(request).teamId, request.params.id, request.body),
  );

  r.delete(
    '/lead-attributes/:id',
    {
      preHandler: app.authorize('attributes:manage'),
      schema: { tags, params: ZIdParams, response: { 200: ZDone } },
    },
    async (request) => {
      await attributes.delete(currentUser(request).teamId, request.params.id);
      return done('attribute_deleted');
    },
  );
}
