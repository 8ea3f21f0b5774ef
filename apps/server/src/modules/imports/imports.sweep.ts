import type { JobQueue } from '../../jobs/job-queue.ts';
import { createResumableRuns } from '../../jobs/resumable-runs.ts';
import { startSweeper } from '../../jobs/sweeper.ts';
import { createImportHousekeeping } from './import-housekeeping.ts';
import type { createImportStaging } from './import-staging.repository.ts';
import { IMPORT_JOB, STALE_AFTER_SECONDS } from './imports.jobs.ts';
import type { ImportsRepository } from './imports.repository.ts';

const SWEEP_EVERY_MS = 5_000;
/** How often files, abandoned uploads and staging tables are cleared up (import-housekeeping.ts). */
const HOUSEKEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * The imports' resumer and housekeeping: runs that died with their process (kill -9, power loss)
 * are requeued so they resume, and now and then what imports no longer need is cleared.
 */
export function createImportsSweep(o: {
  jobs: JobQueue;
  repo: ImportsRepository;
  staging: ReturnType<typeof createImportStaging>;
  filesDir: string;
  embedded: boolean;
  sweepEveryMs?: number;
}) {
  const runs = createResumableRuns({
    jobs: o.jobs,
    job: IMPORT_JOB,
    store: o.repo,
    data: (row) => ({ importId: row.id }),
    embedded: o.embedded,
    staleAfterSeconds: STALE_AFTER_SECONDS,
  });
  const housekeeping = createImportHousekeeping(o);
  let housekeptAt = 0;
  let sweeper: { stop(): void } | undefined;

  async function sweep(first: boolean) {
    await runs.sweep();
    if (first || Date.now() - housekeptAt >= HOUSEKEEP_EVERY_MS) {
      housekeptAt = Date.now();
      // Nothing waits on it: one that fails (a file the process may not remove) is tried next time.
      await housekeeping.run().catch(() => {});
    }
  }

  return {
    /** Sends an import's job again, and counts a run alive in this process (resumable-runs.ts). */
    runs,
    /** Starts sweeping (at once, then every few seconds); once the job's queue exists. */
    async start() {
      sweeper = await startSweeper(o.sweepEveryMs ?? SWEEP_EVERY_MS, sweep);
    },
    stop() {
      sweeper?.stop();
    },
  };
}
