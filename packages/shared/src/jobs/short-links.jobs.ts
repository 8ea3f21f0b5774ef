import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** The hourly check of every short-URL domain (decision 028): a job with no data, on the cron. */
export const SHORT_URL_DOMAINS_CHECK_JOB = defineJob('short-links.check-domains', z.object({}));
