import {
  processMessage,
  type TProcess,
  type TProcessMessage,
  type TProcessStatus,
} from '@herald/shared/processes/processes.schemas';
import type { EventBus } from '../events/event-bus.ts';
import type { ProcessesRepository } from './processes.repository.ts';

export interface JobOwner {
  teamId: number;
  userId: number;
}

/** What a user-visible job's handler is given besides its data; `Phase`: the steps its kind names. */
export interface JobContext<Phase extends string = string> extends JobOwner {
  processId: number;
  signal: AbortSignal;
  /**
   * Records progress (0–100) and tells the owner's browsers at once. `phase`: the step the job is
   * in, one its kind names in `PROCESS_PHASES` (none when left out); `message`: a code the web
   * translates with its params (a failure's reason shown beside the phase, what the job left behind).
   */
  reportProgress(
    progress: number,
    update?: { status?: TProcessStatus; phase?: Phase; message?: TProcessMessage },
  ): Promise<void>;
  /** The run has taken its work (claimed it): its process shows Running from now. */
  started(): Promise<void>;
}

/**
 * How a run ended when it did not throw: done (nothing returned), `cancelled` (the process shows
 * Cancelled), `paused` (it stopped where it stood until its owner, or its money, resumes it; the
 * process shows Paused), or `superseded` (another run owns the work now and tells the process row itself).
 */
export type JobOutcome = void | 'cancelled' | 'paused' | 'superseded';
export type ProcessJobHandler<T, Phase extends string = string> = (
  data: T,
  context: JobContext<Phase>,
) => Promise<JobOutcome>;

/** What a process job carries in pg-boss: its owner and process beside the kind's own data. */
export interface Envelope<T> extends JobOwner {
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
 * Runs one process job: the handler gets a context that writes its `processes` row and tells the
 * owner (`ProcessStatus`) at each change, and the row ends completed, cancelled or failed with the
 * failure's code. A phase belongs to a running job: every end clears it.
 */
export function createProcessRunner(processes: ProcessesRepository, bus: EventBus) {
  const publish = (owner: JobOwner, process: TProcess | undefined) =>
    process ? bus.publish({ userId: owner.userId }, { type: 'ProcessStatus', payload: process }) : Promise.resolve();

  return {
    publish,
    async run<T>(handler: ProcessJobHandler<T>, envelope: Envelope<T>, signal: AbortSignal): Promise<void> {
      const { teamId, userId, processId, data } = envelope;
      const owner = { teamId, userId };
      const update = async (patch: Parameters<ProcessesRepository['update']>[2]) =>
        publish(owner, await processes.update(teamId, processId, patch));
      const context: JobContext = {
        ...owner,
        processId,
        signal,
        async reportProgress(progress, change) {
          const status = change?.status ?? 'running';
          await update({
            progress: Math.max(0, Math.min(100, Math.floor(progress))),
            status,
            phase: status === 'running' ? (change?.phase ?? null) : null,
            message: change?.message,
          });
        },
        started: () => update({ status: 'running' }),
      };
      try {
        const outcome = await handler(data, context);
        if (outcome === 'cancelled' || outcome === 'paused') await update({ status: outcome, phase: null });
        else if (outcome !== 'superseded') await update({ status: 'completed', phase: null, progress: 100 });
      } catch (error) {
        await update({ status: 'failed', phase: null, message: processMessage.failure(failureOf(error)) });
        throw error;
      }
    },
  };
}
