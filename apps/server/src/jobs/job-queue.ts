import { PgBoss } from 'pg-boss';
import type { TProcess, TProcessStatus } from '@herald/shared/processes/processes.schemas';
import type { Database } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
// biome-ignore lint/style/noRestrictedImports: processes.repository.ts belongs to jobs/; this import goes when it moves there.
import type { ProcessesRepository } from '../modules/processes/processes.repository.ts';

export interface JobOwner {
  teamId: number;
  userId: number;
}

export interface JobContext extends JobOwner {
  processId: number;
  signal: AbortSignal;
  /** Records progress (0–100) and tells the owner's browsers at once. */
  reportProgress(progress: number, update?: { status?: TProcessStatus; message?: string }): Promise<void>;
  /** The run has taken its work (claimed it): its process shows Running from now. */
  started(): Promise<void>;
}

/**
 * How a run ended when it did not throw: done (nothing returned), `cancelled` (the process shows
 * Cancelled), or `superseded` (another run owns the work now and tells the process row itself).
 */
export type JobOutcome = void | 'cancelled' | 'superseded';
export type JobHandler<T> = (data: T, context: JobContext) => Promise<JobOutcome>;

interface Envelope<T> extends JobOwner {
  processId: number;
  data: T;
}

/**
 * What a failed process tells its owner, shown in the header's popover in their language: the
 * failure's code when it carries one the web translates (an import's `import_file_broken`, …), else
 * `job_failed` — never the error's own words (a reader's English, PostgreSQL's text with table names
 * and addresses), which stay in pg-boss's record of the job.
 */
export function failureOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z][a-z_]+$/.test(code) ? code : 'job_failed';
}

/**
 * pg-boss on the app's own database (both modes), with each job mirrored by a `processes` row so
 * the user can watch it. One queue per job kind.
 */
export function createJobQueue(options: {
  database: Database;
  bus: EventBus;
  processes: ProcessesRepository;
  schema?: string;
  runWorkers: boolean;
}) {
  const { database, bus, processes, runWorkers } = options;
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ connectionString: database.connectionString, schema: options.schema, max: 4 })
      : new PgBoss({ db: { executeSql: database.executeSql }, backend: 'pglite', schema: options.schema });
  // pg-boss reports failures as events (an unhandled 'error' would crash the process); health
  // shows the queue down for a while after each.
  let lastErrorAt = 0;
  boss.on('error', () => {
    lastErrorAt = Date.now();
  });

  interface Registered {
    handler: JobHandler<unknown>;
    /** How many jobs of the kind one process runs at once: 1 unless the kind asks for more. */
    concurrency: number;
    /** How long pg-boss lets one job run before it aborts its signal (its default: 15 minutes). */
    expireInSeconds?: number;
  }
  const handlers = new Map<string, Registered>();
  let started = false;

  const publish = (owner: JobOwner, process: TProcess | undefined) =>
    process ? bus.publish({ userId: owner.userId }, { type: 'ProcessStatus', payload: process }) : Promise.resolve();

  async function work(name: string, { handler, concurrency, expireInSeconds }: Registered) {
    const queueOptions = expireInSeconds ? { expireInSeconds } : {};
    await boss.createQueue(name, queueOptions);
    // A queue made by an older version keeps its options unless told.
    if (expireInSeconds) await boss.updateQueue(name, queueOptions);
    if (!runWorkers) return;
    const options = { localConcurrency: concurrency, pollingIntervalSeconds: 0.5 };
    await boss.work<Envelope<unknown>>(name, options, async ([job]) => {
      const { teamId, userId, processId, data } = job.data;
      const owner = { teamId, userId };
      const context: JobContext = {
        ...owner,
        processId,
        signal: job.signal,
        async reportProgress(progress, update) {
          const value = Math.max(0, Math.min(100, Math.floor(progress)));
          await publish(
            owner,
            await processes.update(teamId, processId, {
              progress: value,
              status: update?.status ?? 'running',
              message: update?.message,
            }),
          );
        },
        async started() {
          await publish(owner, await processes.update(teamId, processId, { status: 'running' }));
        },
      };
      try {
        const outcome = await handler(data, context);
        if (outcome === 'cancelled') {
          await publish(owner, await processes.update(teamId, processId, { status: 'cancelled' }));
        } else if (outcome !== 'superseded') {
          await publish(owner, await processes.update(teamId, processId, { status: 'completed', progress: 100 }));
        }
      } catch (error) {
        await publish(
          owner,
          await processes.update(teamId, processId, { status: 'failed', message: failureOf(error) }),
        );
        throw error;
      }
    });
  }

  return {
    boss,
    async start() {
      await boss.start();
      started = true;
      for (const [name, registered] of handlers) await work(name, registered);
    },
    /** Registers a job kind; call before or after start. */
    async register<T>(name: string, handler: JobHandler<T>, options: Partial<Omit<Registered, 'handler'>> = {}) {
      const registered = { ...options, handler: handler as JobHandler<unknown>, concurrency: options.concurrency ?? 1 };
      handlers.set(name, registered);
      if (started) await work(name, registered);
    },
    /** Queues a job and shows it to its owner at once as a queued process. */
    async enqueue<T>(name: string, data: T, owner: JobOwner & { title: string }): Promise<TProcess> {
      const process = await processes.create(owner.teamId, owner.userId, name, owner.title);
      const envelope: Envelope<T> = { teamId: owner.teamId, userId: owner.userId, processId: process.id, data };
      await boss.send(name, envelope, { retryLimit: 0 });
      await publish(owner, process);
      return process;
    },
    /**
     * Sends a job again under the process it already has (a resumer found its run dead). The
     * row's owner and process come as stored: a deleted user or process stays 0, never null.
     */
    async resend<T>(
      name: string,
      row: { team_id: number; user_id: number | null; process_id: number | null },
      data: T,
    ): Promise<void> {
      const envelope: Envelope<T> = {
        teamId: Number(row.team_id),
        userId: Number(row.user_id ?? 0),
        processId: Number(row.process_id ?? 0),
        data,
      };
      await boss.send(name, envelope, { retryLimit: 0 });
    },
    /** Whether a job of `name` whose data contains `data` is waiting or running. */
    async hasPending(name: string, data: Record<string, unknown>): Promise<boolean> {
      const jobs = await boss.findJobs(name, { data: { data } });
      return jobs.some((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active');
    },
    /** pg-boss is started and has reported no failure in the last 30 seconds. */
    isRunning(): boolean {
      return started && Date.now() - lastErrorAt > 30_000;
    },
    /** Lets running jobs finish (up to `timeoutMs`), then stops polling. */
    async stop(timeoutMs = 30_000) {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
