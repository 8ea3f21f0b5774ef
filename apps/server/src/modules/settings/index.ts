import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createValidationTemplateRepository } from './settings.repository.ts';
import { settingsRoutes } from './settings.routes.ts';
import { createSettingsService } from './settings.service.ts';

/** Wires the team's settings: repository → service → routes. */
export function createSettingsModule({ db }: { db: Kysely<DB> }) {
  const service = createSettingsService(createValidationTemplateRepository(db));
  return { service, routes: (app: FastifyInstance) => settingsRoutes(app, { settings: service }) };
}
