import type { JobDefinition } from '@herald/shared/jobs/job-definition';
import type { JobQueue } from './job-queue.ts';

/**
 * Long work that must outlive the process running it (an import, an export, a campaign's dispatch)
 * keeps its state in a row of its own table, the run's row: a run claims it, beats while it works,
 * and ends it. pg-boss alone cannot tell a run that died with its process (kill -9, power loss)
 * from one still going on another node, nor does it hold a job for work whose send never happened;
 * the sweep here finds both from the rows and sends their job again.
 */

/** A run's row as the sweep needs it: the job's owner and process come from here when it is sent again. */
export interface RunRow {
  id: number;
  team_id: number;
  user_id: number | null;
  process_id: number | null;
}

/** The queries of one kind of run over its own table. */
export interface RunStore<R extends RunRow> {
  /**
   * Runs that died — no heartbeat for `staleSeconds`, or every started one when null — set back to
   * waiting (heartbeat cleared), each returned to exactly one caller, which sends it again. Never
   * the runs in `alive`: this process is running them, however long their last beat is.
   */
  requeueOrphans(staleSeconds: number | null, alive: readonly number[]): Promise<R[]>;
  /** Runs waiting for a job since before `seconds` ago: queued, but maybe never sent. */
  waitingSince(seconds: number): Promise<R[]>;
}

export interface ResumableRunsOptions<R extends RunRow> {
  jobs: Pick<JobQueue, 'resend' | 'hasPending'>;
  /** The job that runs one of them. */
  job: JobDefinition<unknown, Record<string, unknown>>;
  store: RunStore<R>;
  /** The job's data for a row (`{ importId: row.id }`). */
  data: (row: R) => Record<string, unknown>;
  /**
   * The embedded database belongs to this process alone, so every started run this process is not
   * running is an orphan, however recent its beat; on PostgreSQL another node may be running it, so
   * only a stale one is.
   */
  embedded: boolean;
  /** Seconds without a beat after which a run counts as dead, and a queued one as never sent. */
  staleAfterSeconds: number;
}

export function createResumableRuns<R extends RunRow>(options: ResumableRunsOptions<R>) {
  const { jobs, job, store, staleAfterSeconds } = options;
  const send = (row: R) => jobs.resend(job, row, options.data(row));
  /** Runs alive in this process, by row id: how many (a superseded run may still be ending beside its successor). */
  const alive = new Map<number, number>();
  /**
   * The requeue under way. A run starting meanwhile waits for it before it counts as alive and
   * claims its row: the requeue's list of live runs was taken before it, so it must not find the
   * row claimed (a live run requeued, then fenced by its successor).
   */
  let requeueing: Promise<unknown> | undefined;

  return {
    /** Sends the job of `row` (a resume the user asked for, or the sweep's). */
    send,
    /** Runs `work`, the run of row `id`, as alive in this process: no sweep here requeues it meanwhile. */
    async track<T>(id: number, work: () => Promise<T>): Promise<T> {
      while (requeueing) await requeueing;
      alive.set(id, (alive.get(id) ?? 0) + 1);
      try {
        return await work();
      } finally {
        const left = (alive.get(id) ?? 1) - 1;
        if (left > 0) alive.set(id, left);
        else alive.delete(id);
      }
    },
    /** One pass. Runs on `startSweeper`. */
    async sweep() {
      // On the embedded database a live run's beat can be long behind while its queries wait their
      // turn on the one connection; only this process can run it, so whether it is alive is known
      // here, and its beat is not asked.
      const requeue = store.requeueOrphans(options.embedded ? null : staleAfterSeconds, [...alive.keys()]);
      requeueing = requeue.catch(() => undefined);
      let orphans: R[];
      try {
        orphans = await requeue;
      } finally {
        requeueing = undefined;
      }
      for (const row of orphans) await send(row);
      // Queued with no job to run it: the process stopped between the row and the send, the send
      // failed, or the job failed before it claimed the run. Nothing else would ever run it.
      for (const row of await store.waitingSince(staleAfterSeconds)) {
        if (!(await jobs.hasPending(job, options.data(row)))) await send(row);
      }
    },
  };
}

/**
 * Calls `beat` every `everyMs` until stopped, so a run stays alive through a long statement that
 * reports no progress (a count, a sort). One at a time: a tick that finds the last beat still
 * waiting (behind that statement, on the embedded database's one connection) lets it be. A failed
 * beat is skipped, and a run that stays silent is taken for dead by the sweep, as it should be.
 */
export function startHeartbeat(beat: () => Promise<unknown>, everyMs: number) {
  let beating: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    beating ??= beat()
      .catch(() => undefined)
      .finally(() => {
        beating = undefined;
      });
  }, everyMs);
  return {
    /** Stops beating; resolves once a beat under way has ended. */
    async stop() {
      clearInterval(timer);
      await beating;
    },
  };
}
