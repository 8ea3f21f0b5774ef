import { SHORT_URL_DOMAIN_LOST_MAIL_JOB, SHORT_URL_DOMAINS_CHECK_JOB } from '@herald/shared/jobs/short-links.jobs';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ShortLinksRepository } from './short-links.repository.ts';
import { domainLostMail } from './short-url-domains.mail.ts';
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

/**
 * The mail to a team's owner and admins when a domain was taken out of use: a retried job sent
 * after the check wrote the loss, one mail per address.
 */
export async function registerDomainLostMail(
  jobs: Pick<JobQueue, 'register'>,
  deps: { repo: ShortLinksRepository; mailer: Mailer; settingsUrl: string },
) {
  await jobs.register(SHORT_URL_DOMAIN_LOST_MAIL_JOB, async ({ teamId, host }) => {
    const mail = domainLostMail(host, deps.settingsUrl);
    for (const { email } of await deps.repo.domains.managers(teamId)) await deps.mailer.send({ to: email, ...mail });
  });
}
