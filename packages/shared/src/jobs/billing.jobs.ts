import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Renews (or ends) the subscriptions whose period is over; on a cron, with no data. */
export const RENEWAL_JOB = defineJob('billing.renew-subscriptions', z.object({}));
/** The mail to a team's owner that their plan ended unpaid. */
export const ENDED_MAIL_JOB = defineJob(
  'billing.subscription-ended-mail',
  z.object({ email: z.string().min(1), planName: z.string() }),
);
