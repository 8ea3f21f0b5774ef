import type { JobQueue } from '../../jobs/job-queue.ts';
import { AUTO_APPROVE_JOB, type AlphaNamesService } from './alpha-names.service.ts';

/**
 * The simulator's stand-in for a carrier's review: a name asked for is approved by itself after
 * `delaySeconds`, as one delayed internal job (it survives restarts; nothing waits in memory).
 */
export async function registerAutoApprove(jobs: JobQueue, service: AlphaNamesService) {
  await jobs.register<{ id: number }>(AUTO_APPROVE_JOB, (data) => service.autoApprove(data.id));
}

export interface AutoApproveOptions {
  /** Every team's new names, after this many seconds (an installation whose gateways are all simulators). */
  everySeconds?: number;
  /** A team that sends only through the simulator: its new names, after this many seconds. */
  simulatorSeconds: number;
  /** Whether every gateway the team can send through is the simulator (and it has one). */
  sendsOnlyThroughSimulator?: (teamId: number) => Promise<boolean>;
}

/**
 * When a name asked for is approved by itself: on installations that say so, and for a team whose
 * messages only the simulator carries, which has no carrier to review a name. A team with any real
 * gateway waits for an installation admin.
 */
export function autoApproveScheduler(jobs: JobQueue, o: AutoApproveOptions) {
  return async (teamId: number, id: number) => {
    const delay = o.everySeconds ?? ((await o.sendsOnlyThroughSimulator?.(teamId)) ? o.simulatorSeconds : undefined);
    if (delay !== undefined) await jobs.send(AUTO_APPROVE_JOB, { id }, { startAfter: delay });
  };
}
