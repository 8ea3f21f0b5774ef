import type { Kysely, Transaction } from 'kysely';
import type { TRole } from '@herald/shared/auth/roles';
import type { DB } from '../../db/schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

export function createAuthRepository(db: Kysely<DB>) {
  return {
    transaction<T>(fn: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn);
    },

    findUserByEmail(email: string, tx: Db = db) {
      return tx
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst();
    },

    findUserById(id: number, tx: Db = db) {
      return tx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async createTeam(name: string, tx: Db = db) {
      return tx.insertInto('teams').values({ name }).returning('id').executeTakeFirstOrThrow();
    },

    async createUser(
      user: {
        team_id: number;
        name: string;
        email: string;
        password_hash: string;
        role: TRole;
        email_verified_at: Date | null;
      },
      tx: Db = db,
    ) {
      return tx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async updateUser(
      id: number,
      patch: { name?: string; phone?: string | null; password_hash?: string; email_verified_at?: Date },
      tx: Db = db,
    ) {
      return tx
        .updateTable('users')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async createSession(session: { id: string; user_id: number; expires_at: Date }, tx: Db = db) {
      await tx.insertInto('sessions').values(session).execute();
    },

    async revokeSession(id: string, tx: Db = db) {
      await tx
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** Ends every session of a user, or every one but `keep`. */
    async revokeUserSessions(userId: number, keep?: string, tx: Db = db) {
      let q = tx
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (keep) q = q.where('id', '!=', keep);
      await q.execute();
    },

    async createToken(
      token: {
        user_id: number;
        kind: 'verify_email' | 'password_reset';
        token_hash: string;
        expires_at: Date;
        code_hash?: string;
        code_expires_at?: Date;
      },
      tx: Db = db,
    ) {
      // A new link voids the older ones of the same kind.
      await tx
        .updateTable('auth_tokens')
        .set({ used_at: new Date() })
        .where('user_id', '=', token.user_id)
        .where('kind', '=', token.kind)
        .where('used_at', 'is', null)
        .execute();
      await tx.insertInto('auth_tokens').values(token).execute();
    },

    findTokenByHash(kind: 'verify_email' | 'password_reset', tokenHash: string, tx: Db = db) {
      return tx
        .selectFrom('auth_tokens')
        .selectAll()
        .where('kind', '=', kind)
        .where('token_hash', '=', tokenHash)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Whether a later link of the same kind was made for the user, which voided this one. */
    async hasNewerToken(token: { id: number; user_id: number; kind: 'verify_email' | 'password_reset' }, tx: Db = db) {
      const row = await tx
        .selectFrom('auth_tokens')
        .select('id')
        .where('user_id', '=', token.user_id)
        .where('kind', '=', token.kind)
        .where('id', '>', token.id)
        .executeTakeFirst();
      return row !== undefined;
    },

    async markTokenUsed(id: number, tx: Db = db) {
      await tx.updateTable('auth_tokens').set({ used_at: new Date() }).where('id', '=', id).execute();
    },

    async countFailedAttempt(id: number, tx: Db = db) {
      const row = await tx
        .updateTable('auth_tokens')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('id', '=', id)
        .returning('failed_attempts')
        .executeTakeFirstOrThrow();
      return row.failed_attempts;
    },

    findInvitationByHash(tokenHash: string, tx: Db = db) {
      return tx.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    async acceptInvitation(id: number, tx: Db = db) {
      const result = await tx
        .updateTable('invitations')
        .set({ accepted_at: new Date() })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
