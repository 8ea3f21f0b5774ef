import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { done, ZDone } from '@herald/shared/common/messages';
import {
  ZSaveSmsTemplateRequest,
  ZSmsTemplate,
  ZSmsTemplatePage,
  ZSmsTemplateQuery,
} from '@herald/shared/templates/templates.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { TemplatesService } from './templates.service.ts';

/** `/api/config/template/sms` (spec section 7): operators list and load, owners and admins save. */
export async function templatesRoutes(app: FastifyInstance, { templates }: { templates: TemplatesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('templates:read') };
  const manage = { preHandler: app.authorize('templates:manage') };
  const tags = ['templates'];
  const reader = (req: FastifyRequest) => {
    const user = currentUser(req);
    return { teamId: user.teamId, userId: user.id };
  };
  const language = (req: FastifyRequest) => requestLanguage(req.headers['accept-language']);

  r.get(
    '/config/template/sms',
    { ...read, schema: { tags, querystring: ZSmsTemplateQuery, response: { 200: ZSmsTemplatePage } } },
    (req) => templates.page(reader(req), req.query, language(req)),
  );
  r.get(
    '/config/template/sms/:id',
    { ...read, schema: { tags, params: ZIdParams, response: { 200: ZSmsTemplate } } },
    (req) => templates.get(reader(req), req.params.id, language(req)),
  );
  r.post(
    '/config/template/sms',
    { ...manage, schema: { tags, body: ZSaveSmsTemplateRequest, response: { 201: ZSmsTemplate } } },
    async (req, reply) => reply.status(201).send(await templates.create(reader(req), req.body, language(req))),
  );
  r.put(
    '/config/template/sms/:id',
    { ...manage, schema: { tags, params: ZIdParams, body: ZSaveSmsTemplateRequest, response: { 200: ZSmsTemplate } } },
    (req) => templates.update(reader(req), req.params.id, req.body, language(req)),
  );
  r.delete(
    '/config/template/sms/:id',
    { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZDone } } },
    async (req) => {
      await templates.delete(reader(req), req.params.id);
      return done('template_deleted');
    },
  );
}
