import { countTeamRows, type PlanLimits } from '../../db/plan-limits.ts';
import { heldSlices } from '../../db/slice-sizer.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { Database } from '../../db/database.ts';
import { createVersionedCache } from '../../db/versioned-cache.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { createResumableRuns } from '../../jobs/resumable-runs.ts';
import { startSweeper } from '../../jobs/sweeper.ts';
import { createExportsRepository } from './exports.repository.ts';
import { exportsRoutes } from './exports.routes.ts';
import { createExportsService } from './exports.service.ts';
import { createExportRunner, EXPORT_JOB, type ExportRowsSource } from './segment-export.job.ts';
import { createSegmentLeadsRepository } from './segment-leads.repository.ts';
import { createSegmentsRepository } from './segments.repository.ts';
import { segmentsRoutes } from './segments.routes.ts';
import { createSegmentsService } from './segments.service.ts';

export interface SegmentsModuleDeps {
  database: Database;
  bus: EventBus;
  jobs: JobQueue;
  dataDir: string;
  runWorkers: boolean;
  sweepEveryMs?: number;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  valuesOf: (teamId: number, leadIds: number[]) => Promise<Array<TLeadValue & { lead_id: number }>>;
  /** The team's default phone country: a phone filter's value is read as a typed phone is. */
  defaultCountry?: (teamId: number) => Promise<string>;
  /** The plan's audience limit (decision 015); none without it. */
  limits?: PlanLimits;
}

/** A count's ranges of lead ids on the embedded database: a team's ids may be spread among others'. */
const EMBEDDED_COUNTS = { targetMs: 100, first: 20_000, min: 2_000, max: 5_000_000 };
const SWEEP_EVERY_MS = 10_000;
/** An export run beats every few seconds; one silent this long died with its process. */
const BEAT_EVERY_MS = 5_000;
const STALE_AFTER_SECONDS = 60;
/** How long a finished export's file can be downloaded (decision 010). */
const KEEP_FILES_DAYS = 7;

/** Wires audiences: repositories → services → routes, and the export job. */
export async function createSegmentsModule(deps: SegmentsModuleDeps) {
  const db = deps.database.db;
  // On the embedded database a count is read in ranges of ~100 ms each (decision 013).
  const leads = createSegmentLeadsRepository(
    db,
    deps.database.kind === 'embedded' ? { countSlices: () => heldSlices(EMBEDDED_COUNTS) } : {},
  );
  const segments = createSegmentsService({
    repo: createSegmentsRepository(db),
    leads,
    attributes: deps.attributes,
    valuesOf: deps.valuesOf,
    defaultCountry: deps.defaultCountry,
    // Spec section 9: aggregations may be 5 minutes old; versions make saved changes show at once.
    counts: createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 2_000 }),
    limits: deps.limits,
  });
  // Audiences and the segments inside them, each a saved audience of its own.
  deps.limits?.provide('audience-limit', (on, teamId) => countTeamRows(on, 'segments', teamId));
  const dir = join(deps.dataDir === ':memory:' ? '.' : deps.dataDir, 'exports');
  const exportsRepo = createExportsRepository(db);
  // Filled by the modules that export through this runner when they start (the campaign audience).
  const exportSources: { campaign?: ExportRowsSource } = {};
  const runner = createExportRunner({
    sources: exportSources,
    exports: exportsRepo,
    leads,
    segments,
    attributes: deps.attributes,
    bus: deps.bus,
    dir,
    // PGlite is one connection: a batch is the longest a request waits behind an export (decision 013).
    batchSize: deps.database.kind === 'embedded' ? 2_000 : 10_000,
    beatEveryMs: BEAT_EVERY_MS,
  });

  // Exports whose run died start over; pending ones that never got a job are sent one.
  const runs = createResumableRuns({
    jobs: deps.jobs,
    job: EXPORT_JOB,
    store: exportsRepo,
    data: (row) => ({ exportId: Number(row.id) }),
    embedded: deps.database.kind === 'embedded',
    staleAfterSeconds: STALE_AFTER_SECONDS,
  });
  // Bulk work: on the embedded database a person's requests go first (decision 013).
  await deps.jobs.registerProcess(EXPORT_JOB, (data, context) =>
    runs.track(data.exportId, () => runAsBulk(() => runner.run(data, context))),
  );
  /** Resumes exports (above) and removes expired files. */
  async function sweep() {
    await runs.sweep();
    for (const stored of await exportsRepo.expireFiles(KEEP_FILES_DAYS)) await rm(join(dir, stored), { force: true });
  }
  const sweeper = deps.runWorkers ? await startSweeper(deps.sweepEveryMs ?? SWEEP_EVERY_MS, sweep) : undefined;
  const exports = createExportsService({
    repo: exportsRepo,
    jobs: deps.jobs,
    bus: deps.bus,
    requireSegment: segments.requireChain,
    dir,
  });

  return {
    segments,
    /** Another module's export: its rows source, and the start of one of its files (decision 038). */
    exports: { sources: exportSources, startCampaign: exports.startCampaign },
    stop() {
      sweeper?.stop();
    },
    async routes(app: FastifyInstance) {
      await segmentsRoutes(app, { segments });
      await exportsRoutes(app, { exports });
    },
  };
}
