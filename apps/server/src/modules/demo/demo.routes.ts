import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { englishOf } from '@herald/shared/common/messages';
import { ZDemoRequest, ZDemoRequestCreated } from '@herald/shared/demo/demo.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { DemoService } from './demo.service.ts';

/** `POST /api/demo-requests`; a few an hour per address is plenty for a person asking for a demo. */
export async function demoRoutes(app: FastifyInstance, { demo }: { demo: DemoService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/demo-requests',
    {
      preHandler: app.authorize('demo:request'),
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: { tags: ['demo'], body: ZDemoRequest, response: { 201: ZDemoRequestCreated } },
    },
    async (request, reply) => {
      const language = requestLanguage(request.headers['accept-language']);
      const id = await demo.request(currentUser(request), request.body, language);
      reply.code(201);
      return { id, message: englishOf({ code: 'demo_requested' }), code: 'demo_requested' };
    },
  );
}
