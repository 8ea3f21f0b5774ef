import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Asks a polled provider for one message's status; `attempt` spaces the polls out. */
export const POLL_JOB = defineJob(
  'messages-poll-status',
  z.object({
    teamId: z.number().int().positive(),
    messageId: z.number().int().positive(),
    attempt: z.number().int().min(0),
  }),
);
