import type { JobData } from '@herald/shared/jobs/job-definition';
import type { RESET_MAIL_JOB } from '@herald/shared/jobs/account.jobs';

/**
 * The mails an unauthenticated caller can ask for about any address (a reset link, a new
 * verification link). They are sent by a job after the answer, and the job looks the account up,
 * so the request does the same work whether the address belongs to an account or not.
 */
export { RESET_MAIL_JOB, VERIFICATION_MAIL_JOB } from '@herald/shared/jobs/account.jobs';

/** A mail job's data: the address as typed and the language of the request. No link: the job makes it. */
export type AccountMailJob = JobData<typeof RESET_MAIL_JOB>;
