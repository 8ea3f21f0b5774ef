import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { Database } from '../../db/database.ts';
import type { ImportAllowance, PlanLimits } from '../../db/plan-limits.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { fixedSlices, heldSlices } from '../../db/slice-sizer.ts';
import { createFailedRowsRepository } from './failed-rows.repository.ts';
import { createFailedRowsService } from './failed-rows.service.ts';
import { announceImport } from './import-run.ts';
import { createImportStaging } from './import-staging.repository.ts';
import { createImportUploadService } from './import-upload.service.ts';
import { createImportRunner, IMPORT_JOB } from './imports.jobs.ts';
import { createImportsRepository, type ImportFileRow } from './imports.repository.ts';
import { importsRoutes } from './imports.routes.ts';
import { createImportsService } from './imports.service.ts';
import { createImportsSweep } from './imports.sweep.ts';

export interface ImportsModuleDeps {
  database: Database;
  bus: EventBus;
  jobs: JobQueue;
  dataDir: string;
  runWorkers: boolean;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  createAttributes: (
    teamId: number,
    rows: Array<{ name: string; sort_order: number; type: 'string' | 'number' | 'date' | 'url' }>,
  ) => Promise<TLeadAttribute[]>;
  ignoredFormats: (teamId: number) => Promise<string>;
  /** The team's default phone country (decision 011); Ukraine without it. */
  defaultCountry?: (teamId: number) => Promise<string>;
  requireList: (teamId: number, listId: number) => Promise<{ id: number; source_id: number }>;
  /**
   * The sources module's hook before lists or sources are deleted: imports stop their runs into
   * them there, and tell those imports' users once the delete has committed.
   */
  onListsDeleting: (
    handler: (teamId: number, by: 'list_id' | 'source_id', ids: number[]) => Promise<() => Promise<void>>,
  ) => void;
  sweepEveryMs?: number;
  chunkRows?: number;
  /** The plan's `import-limit` (decisions 009 and 015); unlimited without it. */
  importAllowance?: ImportAllowance;
  /** The plans' registry: imports count the leads they imported in the plan's period. */
  limits?: Pick<PlanLimits, 'provide' | 'historySince'>;
}

/**
 * Embedded chunks aim at a 90 ms hold, so that a request waiting behind one, plus its own ~30 ms,
 * stays under the 150 ms bar (decision 013: at 150 ms the request p99 was ~230 ms; at 70 ms the
 * import cost more than the 15% allowed). Never under 250 rows, below which each chunk's own
 * statements (locks, recount, tallies, the import's row) cost more than its rows.
 */
const EMBEDDED_CHUNKS = { targetMs: 90, first: 500, min: 250, max: 2_000 };
/** The summary's reads: rows that are only read go ~20 times faster than rows written. */
const EMBEDDED_READS = { targetMs: 100, first: 5_000, min: 1_000, max: 200_000 };

/** pg-boss's longest job (24 hours). */
export const IMPORT_JOB_EXPIRE_SECONDS = 24 * 60 * 60;
/** Imports one process runs at once (see the job registration below). */
const IMPORTS_AT_ONCE = 2;

/** Wires the imports capability: repository → service → routes, the job, and the resumer. */
export async function createImportsModule(deps: ImportsModuleDeps) {
  const { database, bus, jobs } = deps;
  const repo = createImportsRepository(database.db);
  const failedRows = createFailedRowsRepository(database.db);
  const staging = createImportStaging(
    database.db,
    database.kind === 'postgres' ? database.connectionString : undefined,
  );
  const filesDir = join(deps.dataDir === ':memory:' ? '.' : deps.dataDir, 'files');
  const embedded = database.kind === 'embedded';
  const importAllowance: ImportAllowance = deps.importAllowance ?? { reserve: async () => {}, claim: async () => null };
  // A completed import's leads count against the import limit of the period it finished in.
  deps.limits?.provide('import-limit', (db, teamId, since) => repo.leadsImportedSince(db, teamId, since));
  const completed: Array<(row: ImportFileRow) => Promise<void>> = [];
  const runner = createImportRunner({
    repo,
    failedRows,
    staging,
    bus,
    attributes: deps.attributes,
    ignoredFormats: deps.ignoredFormats,
    defaultCountry: deps.defaultCountry,
    filePath: (stored) => join(filesDir, stored),
    // PGlite is one connection: a chunk is one transaction, so it is the longest a request waits
    // behind an import. There each chunk is sized toward a 90 ms hold from the ones before it
    // (decision 013); PostgreSQL gives each chunk a connection of its own and keeps large ones.
    chunks: () =>
      deps.chunkRows !== undefined
        ? fixedSlices(deps.chunkRows)
        : embedded
          ? heldSlices(EMBEDDED_CHUNKS)
          : fixedSlices(100_000),
    readSlices: () => (embedded ? heldSlices(EMBEDDED_READS) : fixedSlices(2 ** 31 - 1)),
    chunkSize: deps.chunkRows ?? (embedded ? 2_000 : 100_000),
    publishConcurrency: embedded ? 1 : 2,
    batchSize: embedded ? 2_000 : 5_000,
    vacuumAfterTakeBack: embedded,
    importAllowance,
    completed,
  });
  const sweep = createImportsSweep({ jobs, repo, staging, filesDir, embedded, sweepEveryMs: deps.sweepEveryMs });
  // Two imports at once, so one team's million-row file does not hold another's hundred rows at 0%
  // for minutes; more wait queued (each takes a parser thread and, on PostgreSQL, up to three
  // connections of the pool). Two of one team take turns for each chunk's duplicate recount.
  // pg-boss aborts a job after 15 minutes by default, and a run aborted so was resumed by the sweep
  // from the file's start: a seven-million-row file on the embedded database runs longer. Whether a
  // run is alive is the sweep's question (alive in this process, or its heartbeat), so the queue
  // gives the most it allows. Bulk work: on the embedded database a person's requests go first
  // (decision 013).
  await jobs.registerProcess(
    IMPORT_JOB,
    (data, context) => sweep.runs.track(data.importId, () => runAsBulk(() => runner.run(data, context))),
    { concurrency: IMPORTS_AT_ONCE, expireInSeconds: IMPORT_JOB_EXPIRE_SECONDS },
  );
  if (deps.runWorkers) await sweep.start();

  const service = createImportsService({
    repo,
    attributes: deps.attributes,
    createAttributes: deps.createAttributes,
    importAllowance,
    historySince: async (teamId) => (await deps.limits?.historySince(database.db, teamId)) ?? null,
    async start(user, importId, title) {
      // The spec shows the task Running at once, with its file name and 0 parsed leads.
      const process = await jobs.enqueueProcess(
        IMPORT_JOB,
        { importId },
        { teamId: user.teamId, userId: user.id, title, status: 'running' },
      );
      return process.id;
    },
    async resume(importId) {
      const row = await repo.findByIdUnscoped(importId);
      if (row) await sweep.runs.send(row);
    },
    announceFailed: (row) => announceImport(bus, row, 'failed', 0),
  });
  deps.onListsDeleting((teamId, by, ids) => service.stopRunsOf(teamId, by, ids));

  const upload = createImportUploadService({
    repo,
    attributes: deps.attributes,
    requireList: deps.requireList,
    defaultCountry: deps.defaultCountry,
  });
  const failed = createFailedRowsService({ repo, failedRows, attributes: deps.attributes });

  return {
    service,
    /**
     * Registers what starts a lookup of an import's list when the import completes and its mapping
     * asked for `check_mobile_status` (the lookups module's; the importing user pays). A failure
     * there leaves the import completed.
     */
    onLookupRequested(start: (teamId: number, userId: number, listId: number) => Promise<void>) {
      completed.push(async (row) => {
        if (row.check_mobile_status && row.user_id !== null) await start(row.team_id, row.user_id, row.list_id);
      });
    },
    routes: (app: FastifyInstance) => importsRoutes(app, { imports: service, upload, failed, filesDir }),
    stop() {
      sweep.stop();
    },
  };
}
