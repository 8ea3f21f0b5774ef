import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import { countTeamRows, type PlanLimits } from '../../db/plan-limits.ts';
import { createVersionedCache } from '../../db/versioned-cache.ts';
import { createSourcesRepository, EMBEDDED_LEAD_DELETE_BATCH } from './sources.repository.ts';
import { sourcesRoutes } from './sources.routes.ts';
import { createSourcesService } from './sources.service.ts';

export interface SourcesModuleDeps {
  database: Database;
  /** Leads deleted a transaction when a list or source goes; the database's own default without it. */
  leadDeleteBatch?: number;
  /** The plan's source and list limits (decision 015); none without it. */
  limits?: PlanLimits;
}

/** Wires sources and their lists: repository → service → routes. */
export function createSourcesModule({ database, leadDeleteBatch, limits }: SourcesModuleDeps) {
  const repo = createSourcesRepository(
    database.db,
    leadDeleteBatch ?? (database.kind === 'embedded' ? EMBEDDED_LEAD_DELETE_BATCH : null),
  );
  const service = createSourcesService(repo, createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 2_000 }), limits);
  limits?.provide('source-limit', (db, teamId) => countTeamRows(db, 'sources', teamId));
  limits?.provide('list-limit', (db, teamId) => countTeamRows(db, 'lists', teamId));
  return {
    service,
    /** Other modules register here what must happen when lists or sources are deleted. */
    onListsDeleting: service.onListsDeleting,
    routes: (app: FastifyInstance) => sourcesRoutes(app, { sources: service }),
  };
}
