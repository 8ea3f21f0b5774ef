import type { JobQueue } from '../../jobs/job-queue.ts';
import { AUTO_APPROVE_JOB, type AlphaNamesService, DECISION_MAIL_JOB } from './alpha-names.service.ts';

/**
 * The simulator's stand-in for a carrier's review: a name asked for is approved by itself after
 * `delaySeconds`, as one delayed internal job (it survives restarts; nothing waits in memory).
 */
export async function registerAutoApprove(jobs: JobQueue, service: AlphaNamesService) {
  await jobs.register(AUTO_APPROVE_JOB, (data) => service.autoApprove(data.id));
  await jobs.register(DECISION_MAIL_JOB, (data) => service.mailDecision(data.id));
}

/** The decision's mail goes out from a job, so a slow or failing mail server never holds the review. */
export function decisionMailQueue(jobs: JobQueue) {
  return async (id: number) => {
    await jobs.send(DECISION_MAIL_JOB, { id });
  };
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
    const delay = await autoApproveDelay(o, teamId);
    if (delay !== undefined) await jobs.send(AUTO_APPROVE_JOB, { id }, { startAfter: delay });
  };
}

/** Seconds after which a team's new name is approved by itself; undefined when an admin reviews it. */
export async function autoApproveDelay(o: AutoApproveOptions, teamId: number): Promise<number | undefined> {
  return o.everySeconds ?? ((await o.sendsOnlyThroughSimulator?.(teamId)) ? o.simulatorSeconds : undefined);
}
