import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { InvitationsTable } from '../../db/tables/accounts.tables.ts';

/** Members and invitations of one team; every method takes the team first. */
export function createTeamRepository(db: Kysely<DB>) {
  return {
    findMembers(teamId: number) {
      return db
        .selectFrom('users')
        .select([
          'id',
          'name',
          'email',
          'role',
          'balance',
          'balance_auto_refill',
          'blocked',
          'phone',
          'email_verified_at',
        ])
        .where('team_id', '=', teamId)
        .orderBy('id')
        .execute();
    },

    async teamName(teamId: number): Promise<string | undefined> {
      return (await db.selectFrom('teams').select('name').where('id', '=', teamId).executeTakeFirst())?.name;
    },

    /** The country the team reads phones in (decision 011). */
    async defaultCountry(teamId: number): Promise<string | undefined> {
      const row = await db.selectFrom('teams').select('default_country').where('id', '=', teamId).executeTakeFirst();
      return row?.default_country;
    },

    findMember(teamId: number, id: number) {
      return db.selectFrom('users').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    },

    async updateMember(teamId: number, id: number, patch: { name?: string; phone?: string | null; blocked?: boolean }) {
      return db
        .updateTable('users')
        .set({ ...patch, updated_at: new Date() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async revokeSessions(userId: number) {
      await db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    emailTaken(email: string) {
      return db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst();
    },

    findInvitations(teamId: number) {
      return db
        .selectFrom('invitations')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('accepted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    findInvitation(teamId: number, id: number) {
      return db
        .selectFrom('invitations')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
    },

    findPendingInvitationByEmail(teamId: number, email: string) {
      return db
        .selectFrom('invitations')
        .select('id')
        .where('team_id', '=', teamId)
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
    },

    /** `check` runs first in the same transaction: the plan's team limits (decision 015). */
    createInvitation(
      invitation: {
        team_id: number;
        email: string;
        role: InvitationsTable['role'];
        token_hash: string;
        invited_by: number;
        expires_at: Date;
      },
      check?: (tx: Kysely<DB>) => Promise<void>,
    ) {
      return db.transaction().execute(async (tx) => {
        await check?.(tx);
        return tx.insertInto('invitations').values(invitation).returningAll().executeTakeFirstOrThrow();
      });
    },

    /** The team's places taken: its members and the invitations still open (the team size's usage). */
    countSeats(on: Kysely<DB>, teamId: number) {
      const members = on.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('team_id', '=', teamId);
      const invited = on
        .selectFrom('invitations')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('team_id', '=', teamId)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`);
      return on.selectNoFrom(sql<number>`(${members}) + (${invited})`.as('n'));
    },

    updateInvitation(
      teamId: number,
      id: number,
      patch: { role?: InvitationsTable['role']; token_hash?: string; expires_at?: Date },
    ) {
      return db
        .updateTable('invitations')
        .set(patch)
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    async deleteInvitation(teamId: number, id: number) {
      const result = await db
        .deleteFrom('invitations')
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

export type TeamRepository = ReturnType<typeof createTeamRepository>;

export function toInvitation(row: Selectable<InvitationsTable>) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
