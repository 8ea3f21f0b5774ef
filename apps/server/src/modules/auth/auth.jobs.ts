import type { JobQueue } from '../../jobs/job-queue.ts';
import type { AuthService } from './auth.service.ts';
import { RESET_MAIL_JOB, VERIFICATION_MAIL_JOB } from './account-mail-jobs.ts';

/**
 * Registers the mail jobs. A retry makes a new link and voids the one before it (`createToken`),
 * so a mail that failed after its link was stored leaves nothing usable behind.
 */
export async function registerAuthJobs(jobs: Pick<JobQueue, 'register'>, auth: AuthService) {
  await jobs.register(RESET_MAIL_JOB, (data) => auth.mailPasswordReset(data));
  await jobs.register(VERIFICATION_MAIL_JOB, (data) => auth.mailVerification(data));
}
