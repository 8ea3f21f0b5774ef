import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { authenticatePlugin } from '../auth/authenticate.ts';
import type { TokenSigner } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { registerSecurityHeaders } from './security-headers.ts';

/** Security headers, rate limits, CORS, the OpenAPI document and its UI, and authentication. */
export async function registerHttpPlugins(
  app: FastifyInstance,
  { config, database, tokens }: { config: Config; database: Database; tokens: TokenSigner },
) {
  await registerSecurityHeaders(app);
  await app.register(rateLimit, { global: false });
  if (config.CORS_ORIGIN) await app.register(cors, { origin: config.CORS_ORIGIN.split(',') });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Herald API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authenticatePlugin, { db: database.db, tokens });
}
