import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type TPermission } from '@herald/shared/auth/permissions';
import type { TRole } from '@herald/shared/auth/roles';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { type AccessTickets, createAccessTickets } from './access-tickets.ts';
import type { TokenClaims, TokenSigner } from './tokens.ts';

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
    /**
     * The purpose a `?ticket=` must have been issued for on this route (EventSource and download
     * links cannot send headers). The session token itself is never read from a URL.
     */
    ticketPurpose?: (request: FastifyRequest) => string;
  }
  interface FastifyInstance {
    /** preHandler: a signed-in, verified, unblocked user with this permission. */
    authorize(permission: TPermission): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: any signed-in, unblocked user, verified or not (log out, resend verification). */
    authenticateAny(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** A single-use ticket for the signed-in session, good for one `purpose` for a minute. */
    issueTicket(request: FastifyRequest, purpose: string): ReturnType<AccessTickets['issue']>;
    /** Which of these sessions may still be used (not revoked, not expired, user not blocked). */
    liveSessions(sessionIds: string[]): Promise<Set<string>>;
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
  const tickets = createAccessTickets(db);

  /** The bearer header, or a ticket where the route takes one. */
  async function readClaims(request: FastifyRequest): Promise<TokenClaims> {
    const header = request.headers.authorization;
    if (header?.startsWith('Bearer ')) return tokens.verify(header.slice(7).trim());
    const purposeOf = request.routeOptions.config?.ticketPurpose;
    const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
    if (purposeOf && typeof ticket === 'string' && ticket) {
      const claims = await tickets.redeem(ticket, purposeOf(request));
      if (claims) return claims;
    }
    throw new AppError('unauthenticated');
  }

  async function resolveUser(request: FastifyRequest, requireVerified = true): Promise<AuthUser> {
    const claims = await readClaims(request);
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

  app.decorate('issueTicket', (request: FastifyRequest, purpose: string) => {
    const user = currentUser(request);
    return tickets.issue({ sessionId: user.sessionId, userId: user.id }, purpose);
  });

  app.decorate('liveSessions', async (sessionIds: string[]) => {
    const live = new Set<string>();
    for (let i = 0; i < sessionIds.length; i += 500) {
      const rows = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select('sessions.id')
        .where('sessions.id', 'in', sessionIds.slice(i, i + 500))
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', new Date())
        .where('users.blocked', '=', false)
        .execute();
      for (const row of rows) live.add(row.id);
    }
    return live;
  });
});

/** The signed-in user of a route guarded by `authorize`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('unauthenticated');
  return request.user;
}
