import { type Kysely, sql, type Transaction } from 'kysely';
import type { TAttributeType, TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { bumpDataVersion } from '../../db/lead-store/data-version.ts';
import { clearRetiredPresenceBits } from '../../db/lead-store/presence-bits.ts';
import type { DB } from '../../db/schema.ts';

const columns = ['id', 'name', 'slug', 'type', 'sort_order', 'is_system'] as const;

export function createAttributesRepository(db: Kysely<DB>) {
  return {
    findAll(teamId: number, tx: Kysely<DB> | Transaction<DB> = db): Promise<TLeadAttribute[]> {
      return tx
        .selectFrom('lead_attributes')
        .select(columns)
        .where('team_id', '=', teamId)
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
    },

    findById(teamId: number, id: number) {
      return db
        .selectFrom('lead_attributes')
        .select(columns)
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findByNames(teamId: number, names: string[]) {
      if (names.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('lead_attributes')
        .select(columns)
        .where('team_id', '=', teamId)
        .where((eb) =>
          eb(
            eb.fn('lower', ['name']),
            'in',
            names.map((n) => n.toLowerCase()),
          ),
        )
        .execute();
    },

    async slugsLike(teamId: number, base: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('lead_attributes')
        .select('slug')
        .where('team_id', '=', teamId)
        .where('slug', 'like', `${base}%`)
        .execute();
      return new Set(rows.map((r) => r.slug));
    },

    /**
     * Inserts attributes; `check` runs first in the same transaction (the plan's attribute limit,
     * decision 015), so two creates at the limit cannot both pass it.
     */
    async create(
      teamId: number,
      rows: Array<{ name: string; slug: string; type: TAttributeType; sort_order: number }>,
      check?: (tx: Kysely<DB>) => Promise<void>,
    ) {
      return db.transaction().execute(async (tx) => {
        await check?.(tx);
        return tx
          .insertInto('lead_attributes')
          .values(rows.map((r) => ({ ...r, team_id: teamId })))
          .returning(columns)
          .execute();
      });
    },

    /** The team's own attributes (system ones are every team's): the attribute limit's usage. */
    countCustom(on: Kysely<DB>, teamId: number) {
      return on
        .selectFrom('lead_attributes')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('team_id', '=', teamId)
        .where('is_system', '=', false);
    },

    // Lead pages show attribute names and values, so renames and deletes bump the data version.
    update(teamId: number, id: number, patch: { name?: string; sort_order?: number }) {
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .updateTable('lead_attributes')
          .set(patch)
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returning(columns)
          .executeTakeFirst();
        if (row) await bumpDataVersion(tx, teamId);
        return row;
      });
    },

    /** Clears retired presence bits off leads, `limit` a statement (see `clearRetiredPresenceBits`). */
    clearRetiredBits(limit: number): Promise<number> {
      return clearRetiredPresenceBits(db, limit);
    },

    delete(teamId: number, id: number) {
      return db.transaction().execute(async (tx) => {
        const result = await tx
          .deleteFrom('lead_attributes')
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .executeTakeFirst();
        const deleted = Number(result.numDeletedRows) === 1;
        if (deleted) await bumpDataVersion(tx, teamId);
        return deleted;
      });
    },
  };
}

export type AttributesRepository = ReturnType<typeof createAttributesRepository>;
