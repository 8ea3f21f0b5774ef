import { sql } from 'kysely';
import { PgBoss, type QueuePolicy } from 'pg-boss';
import { checkJobPayload, type JobData, type JobDefinition, type JobInput } from '@herald/shared/jobs/job-definition';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import type { Database } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { createProcessRunner, type Envelope, type JobOwner, type ProcessJobHandler } from './process-jobs.ts';
import { createProcessesRepository } from './processes.repository.ts';

/** What an internal job's handler is given besides its data. */
export interface InternalJob {
  id: string;
  /** 0 on the first run, then 1, 2, … on each retry. */
  retryCount: number;
  /** Aborted when pg-boss gives the job up (it ran past its expiry) or the process stops. */
  signal: AbortSignal;
}
/** An internal job's handler: a throw fails the run, and the job is retried while it has retries left. */
export type InternalJobHandler<T> = (data: T, job: InternalJob) => Promise<void>;

export interface RetryOptions {
  /** Runs after the first that a failed job gets. */
  retryLimit?: number;
  /** Seconds before a retry (the first one, with `retryBackoff`). */
  retryDelay?: number;
  /** Doubles the delay each retry (with jitter). */
  retryBackoff?: boolean;
}

export interface SendOptions extends RetryOptions {
  /** Not before then: a time, or seconds from now. */
  startAfter?: Date | number;
  /**
   * On a queue registered with `policy: 'exclusive'`, a second job with a key that is already
   * queued or running is refused (`send` answers null); with `'stately'`, one may wait while one runs.
   */
  singletonKey?: string;
}

export interface RegisterOptions extends RetryOptions {
  /** How many jobs of the kind one process runs at once: 1 unless the kind asks for more. */
  concurrency?: number;
  /** How long pg-boss lets one job run before it aborts its signal (its default: 15 minutes). */
  expireInSeconds?: number;
  /** How `singletonKey` limits the queue (pg-boss's queue policy); set when the queue is first made. */
  policy?: Extract<QueuePolicy, 'standard' | 'exclusive' | 'stately' | 'singleton'>;
}

/** Internal jobs are retried unless they say otherwise: three more runs, 10 s, 20 s, 40 s apart (about). */
const INTERNAL_RETRY: Required<RetryOptions> = { retryLimit: 3, retryDelay: 10, retryBackoff: true };

/**
 * pg-boss's schema beside Herald's tables: its default (`pgboss`) when they are in `public`, and
 * `<schema>_jobs` when they are in another schema. Deployments (or test runs) sharing one database
 * in different schemas then never take each other's jobs: a job names its row by id only, and a
 * worker of another schema would run it against its own rows (as the event bus keeps a channel
 * per schema).
 */
export async function jobsSchemaOf(database: Database): Promise<string | undefined> {
  if (database.kind !== 'postgres') return undefined;
  const r = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
  const schema = r.rows[0]?.s;
  return !schema || schema === 'public' ? undefined : `${schema}_jobs`;
}

// biome-ignore lint/suspicious/noExplicitAny: a definition of any payload, as the methods take one.
type AnyJob = JobDefinition<any, any>;

/**
 * pg-boss on the app's own database (both modes), one queue per job kind, for two kinds of job:
 * internal ones (`register` + `send`/`schedule`), retried and invisible to users, and user-visible
 * ones (`registerProcess` + `enqueueProcess`), each mirrored by a `processes` row and never retried:
 * a failure is reported to its owner, and a long job resumes through its own run table instead
 * (`resumable-runs.ts`). Every kind is a `JobDefinition` from `packages/shared/src/jobs/` (its
 * name and payload schema): a payload is checked when sent, where a bad one throws in the caller,
 * and when run, where a bad one fails the job before its handler sees it (`JobPayloadError`).
 */
export function createJobQueue(options: {
  database: Database;
  bus: EventBus;
  schema?: string;
  runWorkers: boolean;
  /** How often pg-boss looks for due schedules (its default: 30 s); tests shorten it. */
  scheduleEverySeconds?: number;
}) {
  const { database, bus, runWorkers } = options;
  const timing = options.scheduleEverySeconds
    ? {
        cronMonitorIntervalSeconds: options.scheduleEverySeconds,
        cronWorkerIntervalSeconds: options.scheduleEverySeconds,
      }
    : {};
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ connectionString: database.connectionString, schema: options.schema, max: 4, ...timing })
      : new PgBoss({ db: { executeSql: database.executeSql }, backend: 'pglite', schema: options.schema, ...timing });
  // pg-boss reports failures as events (an unhandled 'error' would crash the process); health
  // shows the queue down for a while after each.
  let lastErrorAt = 0;
  boss.on('error', () => {
    lastErrorAt = Date.now();
  });

  const processes = createProcessesRepository(database.db);
  const processRunner = createProcessRunner(processes, bus);

  interface Registered extends RegisterOptions {
    /** pg-boss's job, unwrapped for the kind's handler. */
    run(job: { data: unknown; id: string; retryCount: number; signal: AbortSignal }): Promise<void>;
    visible: boolean;
  }
  const kinds = new Map<string, Registered>();
  let started = false;

  async function work(name: string, kind: Registered) {
    const { concurrency, expireInSeconds, policy, retryLimit, retryDelay, retryBackoff } = kind;
    const queueOptions = {
      ...(expireInSeconds ? { expireInSeconds } : {}),
      ...(kind.visible ? { retryLimit: 0 } : { retryLimit, retryDelay, retryBackoff }),
    };
    await boss.createQueue(name, { ...queueOptions, ...(policy ? { policy } : {}) });
    // A queue made by an older version keeps its options unless told.
    await boss.updateQueue(name, queueOptions);
    if (!runWorkers) return;
    const workOptions = { localConcurrency: concurrency ?? 1, pollingIntervalSeconds: 0.5 };
    await boss.work<unknown>(name, workOptions, async ([job]) => kind.run(job));
  }

  async function add(name: string, kind: Registered) {
    kinds.set(name, kind);
    if (started) await work(name, kind);
  }

  return {
    boss,
    /** The rows of user-visible jobs, for the popover's routes. */
    processes,
    async start() {
      await boss.start();
      started = true;
      for (const [name, kind] of kinds) await work(name, kind);
    },

    /** Registers an internal job kind (no process row, retried); call before or after start. */
    async register<D extends AnyJob>(job: D, handler: InternalJobHandler<JobData<D>>, options: RegisterOptions = {}) {
      await add(job.name, {
        ...INTERNAL_RETRY,
        ...options,
        visible: false,
        run: (run) =>
          handler(checkJobPayload(job, run.data, 'run'), {
            id: run.id,
            retryCount: run.retryCount,
            signal: run.signal,
          }),
      });
    },
    /**
     * Sends an internal job. Its retries default to the kind's; the job id, or null when the
     * queue's policy refused it (a job with its `singletonKey` is already there).
     */
    async send<D extends AnyJob>(job: D, data: JobInput<D>, options: SendOptions = {}): Promise<string | null> {
      return boss.send(job.name, checkJobPayload(job, data, 'send'), options);
    },
    /**
     * Sends `data` to the internal job `name` on a cron schedule (five fields, UTC), from whichever
     * process runs pg-boss's clock at the time, at most once a minute. `key` tells several
     * schedules of one job apart; scheduling again with the same key replaces the schedule.
     */
    async schedule<D extends AnyJob>(job: D, cron: string, data: JobInput<D>, options: { key?: string } = {}) {
      await boss.schedule(job.name, cron, checkJobPayload(job, data, 'send'), { tz: 'UTC', ...options });
    },
    async unschedule(job: AnyJob, key?: string) {
      await boss.unschedule(job.name, key);
    },

    /** Registers a user-visible job kind (a process row each, never retried); call before or after start. */
    async registerProcess<D extends AnyJob, Phase extends string = string>(
      job: D,
      handler: ProcessJobHandler<JobData<D>, Phase>,
      options: Omit<RegisterOptions, keyof RetryOptions | 'policy'> = {},
    ) {
      // Checked inside the run, so a refused payload ends its process as failed like any failure.
      const checked: ProcessJobHandler<unknown> = (data, context) =>
        handler(checkJobPayload(job, data, 'run'), context as Parameters<typeof handler>[1]);
      await add(job.name, {
        ...options,
        visible: true,
        run: (run) => processRunner.run(checked, run.data as Envelope<unknown>, run.signal),
      });
    },
    /**
     * Queues a user-visible job and shows it to its owner at once, as queued or, for work the
     * user sees start at once (an import), as running.
     */
    async enqueueProcess<D extends AnyJob>(
      job: D,
      data: JobInput<D>,
      owner: JobOwner & { title: string; status?: 'queued' | 'running' },
    ): Promise<TProcess> {
      const checked = checkJobPayload(job, data, 'send');
      const process = await processes.create(owner.teamId, owner.userId, job.name, owner.title, owner.status);
      const envelope: Envelope<unknown> = {
        teamId: owner.teamId,
        userId: owner.userId,
        processId: process.id,
        data: checked,
      };
      await boss.send(job.name, envelope, { retryLimit: 0 });
      await processRunner.publish(owner, process);
      return process;
    },
    /**
     * Sends a job of a resumable run again (its run died, or it never had a job). A user-visible
     * kind goes under the process the run already has, its owner and process as stored: a deleted
     * user or process stays 0, never null.
     */
    async resend<D extends AnyJob>(
      job: D,
      row: { team_id: number; user_id: number | null; process_id: number | null },
      data: JobInput<D>,
    ): Promise<void> {
      const checked = checkJobPayload(job, data, 'send');
      if (!kinds.get(job.name)?.visible) {
        await boss.send(job.name, checked as object);
        return;
      }
      const envelope: Envelope<unknown> = {
        teamId: Number(row.team_id),
        userId: Number(row.user_id ?? 0),
        processId: Number(row.process_id ?? 0),
        data: checked,
      };
      await boss.send(job.name, envelope, { retryLimit: 0 });
    },
    /** Whether a job of its kind whose data contains `data` is waiting, running or due a retry. */
    async hasPending(job: AnyJob, data: Record<string, unknown>): Promise<boolean> {
      const jobs = await boss.findJobs(job.name, { data: kinds.get(job.name)?.visible ? { data } : data });
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
