import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * The account's mails an unauthenticated caller can ask for: the address as typed (the job looks
 * the account up, so the request does the same work whether it exists) and the request's language.
 */
const ZAccountMail = z.object({ email: z.string().min(1), lang: z.enum(['uk', 'en', 'ru']) });
export const RESET_MAIL_JOB = defineJob('auth.password-reset-mail', ZAccountMail);
export const VERIFICATION_MAIL_JOB = defineJob('auth.verification-mail', ZAccountMail);
