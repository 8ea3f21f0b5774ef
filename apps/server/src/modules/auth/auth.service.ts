import type { DB } from '../../db/schema.ts';
import type { Kysely } from 'kysely';
import type {
  TSignupRequest,
  TResetRequest,
  TChangePasswordRequest,
  TInviteRegisterRequest,
} from '@herald/shared/auth/auth.schemas';
import { AUTH_MESSAGES } from '@herald/shared/auth/auth.schemas';
import { message } from '@herald/shared/common/messages';
import type { TokenSigner } from '../../auth/tokens.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Language } from '../../http/request-language.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { resetPasswordMail, verifyEmailMail } from '../../mail/templates.ts';
import { type AccountMailJob, RESET_MAIL_JOB, VERIFICATION_MAIL_JOB } from './account-mail-jobs.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { RateLimiter } from './rate-limiter.ts';
import {
  burnPasswordCheck,
  hashPassword,
  randomCode,
  randomToken,
  sameHash,
  sha256,
  verifyPassword,
} from '../../crypto/secrets.ts';

const MINUTE = 60_000;
const VERIFY_TTL = 7 * 24 * 60 * MINUTE;
const RESET_TTL = 60 * MINUTE;
const CODE_TTL = 10 * MINUTE;
const MAX_CODE_ATTEMPTS = 5;
const LIMITS = {
  signinPerAccount: [10, 15 * MINUTE],
  signinPerIp: [50, 15 * MINUTE],
  mailPerAccount: [5, 60 * MINUTE],
  mailPerIp: [20, 60 * MINUTE],
  codePerIp: [30, 15 * MINUTE],
} as const;

interface Deps {
  repo: AuthRepository;
  tokens: TokenSigner;
  mailer: Mailer;
  jobs: Pick<JobQueue, 'send'>;
  limiter: RateLimiter;
  appUrl: string;
  /** Gives a new team owner the Trial, in the sign-up's transaction (decision 015). */
  startTrial?: (tx: Kysely<DB>, teamId: number, userId: number) => Promise<void>;
}

/** Sign-up, sign-in, sessions, e-mail verification, password reset and change. */
export function createAuthService({ repo, tokens, mailer, jobs, limiter, appUrl, startTrial }: Deps) {
  async function openSession(userId: number, tx?: Parameters<AuthRepository['createSession']>[1]) {
    const { token, sessionId, expiresAt } = await tokens.sign(userId);
    await repo.createSession({ id: sessionId, user_id: userId, expires_at: expiresAt }, tx);
    return { access_token: token, sessionId };
  }

  async function sendVerification(user: { id: number; email: string }, lang: Language) {
    const token = randomToken();
    await repo.createToken({
      user_id: user.id,
      kind: 'verify_email',
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + VERIFY_TTL),
    });
    await mailer.send(verifyEmailMail(user.email, `${appUrl}/verify-email?token=${token}`, lang));
  }

  return {
    async signup(input: TSignupRequest, lang: Language) {
      if (await repo.findUserByEmail(input.email)) {
        throw AppError.field('email', 'email_taken');
      }
      const passwordHash = await hashPassword(input.password);
      const { user, session } = await repo.transaction(async (tx) => {
        const team = await repo.createTeam(input.name, tx);
        const user = await repo.createUser(
          {
            team_id: team.id,
            name: input.name,
            email: input.email,
            password_hash: passwordHash,
            role: 'team_owner',
            email_verified_at: null,
          },
          tx,
        );
        await startTrial?.(tx, team.id, user.id);
        return { user, session: await openSession(user.id, tx) };
      });
      await sendVerification(user, lang);
      return { access_token: session.access_token };
    },

    async signin(email: string, password: string, ip: string) {
      // Throttle before hashing, and count unknown e-mails too so the limiter reveals nothing.
      await limiter.hit(`signin:ip:${ip}`, ...LIMITS.signinPerIp);
      await limiter.hit(`signin:account:${email}`, ...LIMITS.signinPerAccount);
      const user = await repo.findUserByEmail(email);
      if (!user) {
        await burnPasswordCheck(password);
        throw new AppError('validation_failed', message(AUTH_MESSAGES.loginFailed));
      }
      if (!(await verifyPassword(user.password_hash, password))) {
        throw new AppError('validation_failed', message(AUTH_MESSAGES.loginFailed));
      }
      if (user.blocked) throw new AppError('account_blocked');
      await limiter.reset(`signin:account:${email}`);
      const { access_token } = await openSession(user.id);
      return { access_token };
    },

    async logout(sessionId: string) {
      await repo.revokeSession(sessionId);
    },

    /** Throttles, then leaves the lookup and the mail to a job (auth.jobs.ts): the same work for any address. */
    async resendVerification(email: string, ip: string, lang: Language) {
      await limiter.hit(`mail:ip:${ip}`, ...LIMITS.mailPerIp);
      await limiter.hit(`mail:account:${email}`, ...LIMITS.mailPerAccount);
      await jobs.send(VERIFICATION_MAIL_JOB, { email, lang });
    },

    /** The verification mail job: a new link for an account that still needs one, nothing otherwise. */
    async mailVerification({ email, lang }: AccountMailJob) {
      const user = await repo.findUserByEmail(email);
      if (user && !user.email_verified_at && !user.blocked) await sendVerification(user, lang);
    },

    async verifyEmail(token: string) {
      await repo.transaction(async (tx) => {
        const row = await repo.findTokenByHash('verify_email', sha256(token), tx);
        if (!row) throw AppError.field('token', 'link_invalid');
        const user = await repo.findUserById(row.user_id, tx);
        // A resend voids the earlier links; only an unverified account has been sent a newer one.
        if (row.used_at && user && !user.email_verified_at && (await repo.hasNewerToken(row, tx))) {
          throw AppError.field('token', 'link_superseded');
        }
        if (row.used_at || row.expires_at.getTime() <= Date.now()) {
          throw AppError.field('token', 'link_invalid');
        }
        await repo.markTokenUsed(row.id, tx);
        if (user && !user.email_verified_at) await repo.updateUser(user.id, { email_verified_at: new Date() }, tx);
      });
    },

    /** Throttles, then leaves the lookup and the mail to a job (auth.jobs.ts): the same work for any address. */
    async requestPasswordReset(email: string, ip: string, lang: Language) {
      await limiter.hit(`mail:ip:${ip}`, ...LIMITS.mailPerIp);
      await limiter.hit(`mail:account:${email}`, ...LIMITS.mailPerAccount);
      await jobs.send(RESET_MAIL_JOB, { email, lang });
    },

    /** The reset mail job: a link and a code for an account that may sign in, nothing otherwise. */
    async mailPasswordReset({ email, lang }: AccountMailJob) {
      const user = await repo.findUserByEmail(email);
      if (!user || user.blocked) return;
      const token = randomToken();
      const code = randomCode();
      await repo.createToken({
        user_id: user.id,
        kind: 'password_reset',
        token_hash: sha256(token),
        expires_at: new Date(Date.now() + RESET_TTL),
        code_hash: sha256(code),
        code_expires_at: new Date(Date.now() + CODE_TTL),
      });
      await mailer.send(resetPasswordMail(user.email, `${appUrl}/reset-password?token=${token}`, code, lang));
    },

    /** Step one checks the code; step two (with the new password) also sets it and ends every session. */
    async resetPassword(input: TResetRequest, ip: string): Promise<{ is_completed: boolean; email?: string }> {
      await limiter.hit(`code:ip:${ip}`, ...LIMITS.codePerIp);
      const invalid = () => AppError.field('token', 'link_invalid');
      // The failed-attempt count must survive the rejection, so it is written outside the transaction.
      const row = await repo.findTokenByHash('password_reset', sha256(input.token));
      if (!row || row.used_at || row.expires_at.getTime() <= Date.now()) throw invalid();
      if (!row.code_hash || !row.code_expires_at || row.code_expires_at.getTime() <= Date.now()) {
        throw AppError.field('code', 'code_expired');
      }
      if (!sameHash(row.code_hash, sha256(input.code))) {
        const attempts = await repo.countFailedAttempt(row.id);
        if (attempts >= MAX_CODE_ATTEMPTS) await repo.markTokenUsed(row.id);
        throw AppError.field('code', 'code_incorrect');
      }
      // The right code proves the mailbox, so its address may be shown back.
      if (!('password' in input)) return { is_completed: false, email: (await repo.findUserById(row.user_id))?.email };
      const passwordHash = await hashPassword(input.password);
      await repo.transaction(async (tx) => {
        const locked = await repo.findTokenByHash('password_reset', sha256(input.token), tx);
        if (!locked || locked.used_at) throw invalid();
        const user = await repo.findUserById(locked.user_id, tx);
        if (!user || user.email.toLowerCase() !== input.email.toLowerCase()) {
          throw AppError.field('email', 'email_link_mismatch');
        }
        await repo.markTokenUsed(locked.id, tx);
        // Reading the link proves the mailbox, so an unverified account becomes verified too.
        await repo.updateUser(
          user.id,
          { password_hash: passwordHash, ...(user.email_verified_at ? {} : { email_verified_at: new Date() }) },
          tx,
        );
        await repo.revokeUserSessions(user.id, undefined, tx);
      });
      return { is_completed: true };
    },

    async changePassword(userId: number, input: TChangePasswordRequest, ip: string) {
      await limiter.hit(`signin:ip:${ip}`, ...LIMITS.signinPerIp);
      const user = await repo.findUserById(userId);
      if (!user || !(await verifyPassword(user.password_hash, input.current_password))) {
        throw AppError.field('current_password', AUTH_MESSAGES.currentPasswordIncorrect);
      }
      const passwordHash = await hashPassword(input.password);
      return repo.transaction(async (tx) => {
        await repo.updateUser(user.id, { password_hash: passwordHash }, tx);
        await repo.revokeUserSessions(user.id, undefined, tx);
        const { access_token } = await openSession(user.id, tx);
        return { access_token };
      });
    },

    async invitationEmail(token: string) {
      const invitation = await repo.findInvitationByHash(sha256(token));
      if (!invitation || invitation.accepted_at || invitation.expires_at.getTime() <= Date.now()) {
        throw new AppError('not_found', message('invitation_invalid'));
      }
      return { email: invitation.email };
    },

    async registerByInvitation(input: TInviteRegisterRequest) {
      const passwordHash = await hashPassword(input.password);
      return repo.transaction(async (tx) => {
        const invitation = await repo.findInvitationByHash(sha256(input.token), tx);
        if (!invitation || invitation.accepted_at || invitation.expires_at.getTime() <= Date.now()) {
          throw AppError.field('token', 'invitation_invalid');
        }
        if (invitation.email.toLowerCase() !== input.email.toLowerCase()) {
          throw AppError.field('email', 'email_invitation_mismatch');
        }
        if (await repo.findUserByEmail(invitation.email, tx)) {
          throw AppError.field('email', 'email_taken');
        }
        if (!(await repo.acceptInvitation(invitation.id, tx))) {
          throw AppError.field('token', 'invitation_invalid');
        }
        // The invitation link proves the mailbox: the account starts verified.
        const user = await repo.createUser(
          {
            team_id: invitation.team_id,
            name: input.name,
            email: invitation.email,
            password_hash: passwordHash,
            role: invitation.role,
            email_verified_at: new Date(),
          },
          tx,
        );
        const { access_token } = await openSession(user.id, tx);
        return { access_token };
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
