import { SHORT_URL_DOMAINS_CHECK_JOB } from '@herald/shared/jobs/short-links.jobs';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { ShortUrlDomainsService } from './short-url-domains.service.ts';

/** Minute 17 of every hour: a domain whose DNS changed is found within the hour, either way. */
export const DOMAINS_CHECK_CRON = '17 * * * *';

/**
 * The scheduled check of every short-URL domain (decision 028), on the jobs platform's cron. A
 * process that runs workers also sends one check when it starts, so domains the migration left
 * waiting (and any added while no worker ran) are looked at within a minute, not an hour.
 */
export async function registerDomainChecks(
  jobs: Pick<JobQueue, 'register' | 'schedule' | 'send'>,
  domains: ShortUrlDomainsService,
  runWorkers: boolean,
) {
  await jobs.register(SHORT_URL_DOMAINS_CHECK_JOB, async () => {
    await domains.checkAll();
  });
  if (!runWorkers) return;
  await jobs.schedule(SHORT_URL_DOMAINS_CHECK_JOB, DOMAINS_CHECK_CRON, {});
  await jobs.send(SHORT_URL_DOMAINS_CHECK_JOB, {});
}
