import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
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
}

const SWEEP_EVERY_MS = 10_000;

/** Wires lead attributes: repository → service → routes, and the sweep that frees deleted attributes' presence bits. */
export async function createAttributesModule({ db, runWorkers, sweepEveryMs }: AttributesModuleDeps) {
  const service = createAttributesService(createAttributesRepository(db));
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
