import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** The hourly check of every short-URL domain (decision 028): a job with no data, on the cron. */
export const SHORT_URL_DOMAINS_CHECK_JOB = defineJob('short-links.check-domains', z.object({}));

/**
 * A verified domain stopped proving and was taken out of use: its team's owner and admins are
 * mailed (the settings tab says so too). The domain is named by id and host as they were then.
 */
export const SHORT_URL_DOMAIN_LOST_MAIL_JOB = defineJob(
  'short-links.domain-lost-mail',
  z.object({ teamId: z.number().int().positive(), domainId: z.number().int().positive(), host: z.string().min(1) }),
);
