import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * A campaign paused because its launcher's balance ran out (decision 034): the launcher is mailed,
 * from a retried job sent after the pause committed, so a slow mail server never holds the engine.
 */
export const CAMPAIGN_PAUSED_MAIL_JOB = defineJob(
  'campaigns.paused-mail',
  z.object({ campaignId: z.number().int().positive() }),
);
