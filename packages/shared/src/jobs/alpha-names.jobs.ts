import { z } from 'zod';
import { defineJob } from './job-definition.ts';

const ZAlphaName = z.object({ id: z.number().int().positive() });
/** The simulator's stand-in for a carrier's review: the name is approved by itself, later. */
export const AUTO_APPROVE_JOB = defineJob('alpha-names.auto-approve', ZAlphaName);
/** The mail to the team about a decided name, sent after the decision commits. */
export const DECISION_MAIL_JOB = defineJob('alpha-names.decision-mail', ZAlphaName);
