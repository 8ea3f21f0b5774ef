import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TokenSigner } from '../../auth/tokens.ts';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { registerAuthJobs } from './auth.jobs.ts';
import { createAuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { createRateLimiter } from './rate-limiter.ts';

export interface AuthModuleDeps {
  db: Kysely<DB>;
  tokens: TokenSigner;
  mailer: Mailer;
  /** Sends the mails whose request must not tell whether the account exists (auth.jobs.ts). */
  jobs: Pick<JobQueue, 'register' | 'send'>;
  /** The web app's address, for the links in mails. */
  appUrl: string;
  /** Gives a new team owner the Trial (the plans module, decision 015). */
  startTrial?: (tx: Kysely<DB>, teamId: number, userId: number) => Promise<void>;
}

/** Wires sign-up, sign-in and the account's own mails: repository → service → routes, and the mail jobs. */
export async function createAuthModule({ db, tokens, mailer, jobs, appUrl, startTrial }: AuthModuleDeps) {
  const service = createAuthService({
    repo: createAuthRepository(db),
    tokens,
    mailer,
    jobs,
    limiter: createRateLimiter(db),
    appUrl,
    startTrial,
  });
  await registerAuthJobs(jobs, service);
  return {
    service,
    /** Under `/api/auth`. */
    routes: (app: FastifyInstance) =>
      app.register((scope) => authRoutes(scope, { auth: service }), { prefix: '/auth' }),
  };
}
