import type { JobQueue } from '../../jobs/job-queue.ts';
import { AUTO_APPROVE_JOB, type AlphaNamesService } from './alpha-names.service.ts';

/**
 * The simulator's stand-in for a carrier's review: a name asked for is approved by itself after
 * `delaySeconds`, as one delayed internal job (it survives restarts; nothing waits in memory).
 */
export async function registerAutoApprove(jobs: JobQueue, service: AlphaNamesService) {
  await jobs.register<{ id: number }>(AUTO_APPROVE_JOB, (data) => service.autoApprove(data.id));
}

export function autoApproveScheduler(jobs: JobQueue, delaySeconds: number) {
  return async (id: number) => {
    await jobs.send(AUTO_APPROVE_JOB, { id }, { startAfter: delaySeconds });
  };
}
