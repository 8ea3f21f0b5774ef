import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TokenSigner } from '../../auth/tokens.ts';
import type { DB } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createAuthRepository } from './auth.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { createRateLimiter } from './rate-limiter.ts';

export interface AuthModuleDeps {
  db: Kysely<DB>;
  tokens: TokenSigner;
  mailer: Mailer;
  /** The web app's address, for the links in mails. */
  appUrl: string;
}

/** Wires sign-up, sign-in and the account's own mails: repository → service → routes. */
export function createAuthModule({ db, tokens, mailer, appUrl }: AuthModuleDeps) {
  const service = createAuthService({
    repo: createAuthRepository(db),
    tokens,
    mailer,
    limiter: createRateLimiter(db),
    appUrl,
  });
  return { service, routes: (app: FastifyInstance) => authRoutes(app, { auth: service }) };
}
