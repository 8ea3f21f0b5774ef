import type { Language } from '../../http/request-language.ts';

/**
 * The mails an unauthenticated caller can ask for about any address (a reset link, a new
 * verification link). They are sent by a job after the answer, and the job looks the account up,
 * so the request does the same work whether the address belongs to an account or not.
 */
export const RESET_MAIL_JOB = 'auth.password-reset-mail';
export const VERIFICATION_MAIL_JOB = 'auth.verification-mail';

/** A mail job's data: the address as typed and the language of the request. No link: the job makes it. */
export interface AccountMailJob {
  email: string;
  lang: Language;
}
