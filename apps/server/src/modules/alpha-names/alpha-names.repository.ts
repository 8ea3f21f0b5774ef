import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

const COLUMNS = [
  'alpha_names.id',
  'alpha_names.team_id',
  'alpha_names.name',
  'alpha_names.status',
  'alpha_names.is_default',
  'alpha_names.created_at',
] as const;

export interface AlphaNameRow {
  id: number;
  team_id: number;
  name: string;
  status: 0 | 1 | 2;
  is_default: boolean;
  created_at: Date;
}

/** Alpha names: the team's own, and the installation's review queue across teams. */
export function createAlphaNamesRepository(db: Kysely<DB>) {
  return {
    list(teamId: number): Promise<AlphaNameRow[]> {
      return db
        .selectFrom('alpha_names')
        .select(COLUMNS)
        .where('team_id', '=', teamId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute() as Promise<AlphaNameRow[]>;
    },

    find(teamId: number, id: number): Promise<AlphaNameRow | undefined> {
      return db
        .selectFrom('alpha_names')
        .select(COLUMNS)
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<AlphaNameRow | undefined>;
    },

    async exists(id: number): Promise<boolean> {
      return Boolean(await db.selectFrom('alpha_names').select('id').where('id', '=', id).executeTakeFirst());
    },

    /** Names that count against the plan: active and on review (a rejected one frees its place). */
    countHeld(teamId: number, q: Kysely<DB> = db) {
      return q
        .selectFrom('alpha_names')
        .select(sql<number>`count(*)`.as('n'))
        .where('team_id', '=', teamId)
        .where('status', 'in', [1, 2]);
    },

    /**
     * The new row, or undefined when the team already has this name (any case). `check` runs first
     * in the same transaction (the plan's limit, which locks the team's count until commit).
     */
    insert(
      teamId: number,
      name: string,
      language: 'uk' | 'en' | 'ru',
      check?: (tx: Kysely<DB>) => Promise<void>,
    ): Promise<AlphaNameRow | undefined> {
      return db.transaction().execute(async (tx) => {
        await check?.(tx);
        const row = await tx
          .insertInto('alpha_names')
          .values({ team_id: teamId, name, language })
          .onConflict((oc) => oc.expression(sql`team_id, lower(name)`).doNothing())
          .returning(COLUMNS)
          .executeTakeFirst();
        return row as AlphaNameRow | undefined;
      });
    },

    /** Makes an active name the team's default, in one transaction; false when it is not active. */
    setDefault(teamId: number, id: number): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const target = await tx
          .selectFrom('alpha_names')
          .select('id')
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .where('status', '=', 1)
          .forUpdate()
          .executeTakeFirst();
        if (!target) return false;
        await tx
          .updateTable('alpha_names')
          .set({ is_default: false })
          .where('team_id', '=', teamId)
          .where('is_default', '=', true)
          .execute();
        await tx.updateTable('alpha_names').set({ is_default: true }).where('id', '=', id).execute();
        return true;
      });
    },

    /**
     * What the mail about a decided name says and whom it goes to: the team's owner and admins who
     * can sign in (the people who manage alpha names).
     */
    async decision(id: number) {
      const row = await db
        .selectFrom('alpha_names')
        .innerJoin('teams', 'teams.id', 'alpha_names.team_id')
        .select([
          'alpha_names.team_id',
          'alpha_names.name',
          'alpha_names.status',
          'alpha_names.language',
          'teams.name as team',
        ])
        .where('alpha_names.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const people = await db
        .selectFrom('users')
        .select('email')
        .where('team_id', '=', row.team_id)
        .where('role', 'in', ['team_owner', 'team_admin'])
        .where('blocked', '=', false)
        .where('email_verified_at', 'is not', null)
        .orderBy('id')
        .execute();
      return { ...row, to: people.map((p) => p.email) };
    },

    /** Every team's names in `status`, oldest first, with the team's name. */
    listByStatus(status: 0 | 1 | 2, limit: number) {
      return db
        .selectFrom('alpha_names')
        .innerJoin('teams', 'teams.id', 'alpha_names.team_id')
        .select([...COLUMNS, 'teams.name as team_name'])
        .where('alpha_names.status', '=', status)
        .orderBy('alpha_names.created_at', 'asc')
        .orderBy('alpha_names.id', 'asc')
        .limit(limit)
        .execute() as Promise<Array<AlphaNameRow & { team_name: string }>>;
    },

    /**
     * Decides a name on review (no team: the installation's admins act across teams). An approved
     * name becomes the team's default when the team has none yet. Undefined when the name is not
     * on review (already decided, or no such name).
     */
    review(id: number, status: 0 | 1, reviewer: string): Promise<AlphaNameRow | undefined> {
      return db.transaction().execute(async (tx) => {
        const row = (await tx
          .updateTable('alpha_names')
          .set({ status, reviewed_by: reviewer, reviewed_at: new Date() })
          .where('id', '=', id)
          .where('status', '=', 2)
          .returning(['id', 'team_id', 'name', 'status', 'is_default', 'created_at'])
          .executeTakeFirst()) as AlphaNameRow | undefined;
        if (!row || status !== 1) return row;
        const hasDefault = await tx
          .selectFrom('alpha_names')
          .select('id')
          .where('team_id', '=', row.team_id)
          .where('is_default', '=', true)
          .executeTakeFirst();
        if (hasDefault) return row;
        await tx.updateTable('alpha_names').set({ is_default: true }).where('id', '=', id).execute();
        return { ...row, is_default: true };
      });
    },
  };
}

export type AlphaNamesRepository = ReturnType<typeof createAlphaNamesRepository>;
