import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { PlanLimits } from '../../db/plan-limits.ts';
import type { DB } from '../../db/schema.ts';
import { startSweeper } from '../../jobs/sweeper.ts';
import { createAttributesRepository } from './attributes.repository.ts';
import { attributesRoutes } from './attributes.routes.ts';
import { createAttributesService } from './attributes.service.ts';

export interface AttributesModuleDeps {
  db: Kysely<DB>;
  /** Whether this process runs background work (not an API-only process). */
  runWorkers: boolean;
  sweepEveryMs?: number;
  /** The plan's attribute limit (decision 015); none without it. */
  limits?: PlanLimits;
}

const SWEEP_EVERY_MS = 10_000;

/** Wires lead attributes: repository → service → routes, and the sweep that frees deleted attributes' presence bits. */
export async function createAttributesModule({ db, runWorkers, sweepEveryMs, limits }: AttributesModuleDeps) {
  const repo = createAttributesRepository(db);
  const service = createAttributesService(repo, limits);
  limits?.provide('attribute-limit', (on, teamId) => repo.countCustom(on, teamId));
  const presence = runWorkers
    ? await startSweeper(sweepEveryMs ?? SWEEP_EVERY_MS, () => service.clearRetiredPresenceBits())
    : undefined;
  return {
    service,
    routes: (app: FastifyInstance) => attributesRoutes(app, { attributes: service }),
    stop() {
      presence?.stop();
    },
  };
}
