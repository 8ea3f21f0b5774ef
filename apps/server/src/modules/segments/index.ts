import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import type { Database } from '../../db/database.ts';
import { createVersionedCache } from '../../db/versioned-cache.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { createExportsRepository } from './exports.repository.ts';
import { exportsRoutes } from './exports.routes.ts';
import { createExportsService } from './exports.service.ts';
import { createExportRunner, EXPORT_JOB } from './segment-export.job.ts';
import { createSegmentLeadsRepository } from './segment-leads.repository.ts';
import { createSegmentsRepository } from './segments.repository.ts';
import { segmentsRoutes } from './segments.routes.ts';
import { createSegmentsService } from './segments.service.ts';

export interface SegmentsModuleDeps {
  database: Database;
  bus: EventBus;
  jobs: JobQueue;
  dataDir: string;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  valuesOf: (teamId: number, leadIds: number[]) => Promise<Array<TLeadValue & { lead_id: number }>>;
}

/** Wires audiences: repositories → services → routes, and the export job. */
export async function createSegmentsModule(deps: SegmentsModuleDeps) {
  const db = deps.database.db;
  const leads = createSegmentLeadsRepository(db);
  const segments = createSegmentsService({
    repo: createSegmentsRepository(db),
    leads,
    attributes: deps.attributes,
    valuesOf: deps.valuesOf,
    // Spec section 9: aggregations may be 5 minutes old; versions make saved changes show at once.
    counts: createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 2_000 }),
  });
  const dir = join(deps.dataDir === ':memory:' ? '.' : deps.dataDir, 'exports');
  const exportsRepo = createExportsRepository(db);
  const runner = createExportRunner({
    exports: exportsRepo,
    leads,
    segments,
    attributes: deps.attributes,
    bus: deps.bus,
    dir,
    // PGlite is one connection: smaller batches let the app's own queries in between.
    batchSize: deps.database.kind === 'embedded' ? 5_000 : 10_000,
  });
  await deps.jobs.register<{ exportId: number }>(EXPORT_JOB, (data, context) => runner.run(data, context));
  const exports = createExportsService({
    repo: exportsRepo,
    jobs: deps.jobs,
    bus: deps.bus,
    requireSegment: segments.requireChain,
    dir,
  });

  return {
    segments,
    async routes(app: FastifyInstance) {
      await segmentsRoutes(app, { segments });
      await exportsRoutes(app, { exports });
    },
  };
}
