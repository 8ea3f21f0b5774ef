import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZConfigGeneral } from '@herald/shared/config/config.schemas';
import type { ConfigService } from './config.service.ts';

/** `GET /api/config/general`: the choices every screen offers. */
export async function configRoutes(app: FastifyInstance, { config }: { config: ConfigService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/config/general',
    { preHandler: app.authorize('profile:read'), schema: { tags: ['config'], response: { 200: ZConfigGeneral } } },
    () => config.general(),
  );
}
