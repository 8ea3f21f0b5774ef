import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Hands a kept "Request demo" on to the form service or the support mailbox. */
export const DEMO_DELIVERY_JOB = defineJob('demo.deliver', z.object({ id: z.number().int().positive() }));
