import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createTemplatesRepository } from './templates.repository.ts';
import { templatesRoutes } from './templates.routes.ts';
import { createTemplatesService } from './templates.service.ts';

/** Wires SMS templates: repository → service → routes. */
export function createTemplatesModule({ db }: { db: Kysely<DB> }) {
  const service = createTemplatesService(createTemplatesRepository(db));
  return { service, routes: (app: FastifyInstance) => templatesRoutes(app, { templates: service }) };
}
