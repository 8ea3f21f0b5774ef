import type { FastifyInstance } from 'fastify';
import { configRoutes } from './config.routes.ts';
import { createConfigService } from './config.service.ts';

/** Wires `GET /api/config/general`. */
export function createConfigModule() {
  const service = createConfigService();
  return { service, routes: (app: FastifyInstance) => configRoutes(app, { config: service }) };
}
