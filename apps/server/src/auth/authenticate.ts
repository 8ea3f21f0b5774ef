import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type TPermission } from '@herald/shared/auth/permissions';
import type { TRole } from '@herald/shared/auth/roles';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import type { TokenSigner } from './tokens.ts';

export interface AuthUser {
  id: number;
  teamId: number;
  role: TRole;
  name: string;
  email: string;
  sessionId: string;
  /** The team's lead-data version as of this request (see db/versioned-cache.ts), read with the session. */
  dataVersion: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Accept the token as `?token=` (EventSource cannot send headers). */
    tokenInQuery?: boolean;
  }
  interface FastifyInstance {
    /** preHandler: a signed-in, verified, unblocked user with this permission. */
    authorize(permission: TPermission): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: any signed-in, unblocked user, verified or not (log out, resend verification). */
    authenticateAny(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

interface Options {
  db: Kysely<DB>;
  tokens: TokenSigner;
}

/**
 * Resolves the bearer token to a user on every request that asks for it. The session row and the
 * user are read each time, so log out, block, password change and role changes apply at once.
 */
export const authenticatePlugin = fp<Options>(async (app, { db, tokens }) => {
  app.decorateRequest('user', null);

  async function resolveUser(request: FastifyRequest, requireVerified = true): Promise<AuthUser> {
    const token = readToken(request);
    if (!token) throw new AppError('unauthenticated');
    const claims = await tokens.verify(token);
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .innerJoin('teams', 'teams.id', 'users.team_id')
      .select([
        'users.id',
        'users.team_id',
        'users.role',
        'users.name',
        'users.email',
        'users.blocked',
        'users.email_verified_at',
        'sessions.revoked_at',
        'sessions.expires_at',
        'teams.data_version',
      ])
      .where('sessions.id', '=', claims.sessionId)
      .where('sessions.user_id', '=', claims.userId)
      .executeTakeFirst();
    // A blocked member's sessions are revoked too; they hear why, so the web can say so.
    if (row?.blocked) throw new AppError('account_blocked');
    if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw new AppError('unauthenticated');
    const user: AuthUser = {
      id: row.id,
      teamId: row.team_id,
      role: row.role,
      name: row.name,
      email: row.email,
      sessionId: claims.sessionId,
      dataVersion: Number(row.data_version),
    };
    request.user = user;
    if (requireVerified && !row.email_verified_at) throw new AppError('email_not_verified');
    return user;
  }

  app.decorate('authenticateAny', async (request: FastifyRequest) => {
    await resolveUser(request, false);
  });

  app.decorate('authorize', (permission: TPermission) => async (request: FastifyRequest) => {
    const user = await resolveUser(request);
    if (!can(user.role, permission)) throw new AppError('forbidden');
  });
});

function readToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (request.routeOptions.config?.tokenInQuery) {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token === 'string') return token;
  }
  return undefined;
}

/** The signed-in user of a route guarded by `authorize`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthenticated');
  return request.user;
}
