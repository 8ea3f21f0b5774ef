import { type Kysely, sql, type Transaction } from 'kysely';
import type { TAttributeType, TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { bumpDataVersion } from '../../db/data-version.ts';
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

    async create(
      teamId: number,
      rows: Array<{ name: string; slug: string; type: TAttributeType; sort_order: number }>,
    ) {
      return db
        .insertInto('lead_attributes')
        .values(rows.map((r) => ({ ...r, team_id: teamId })))
        .returning(columns)
        .execute();
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

    /**
     * Clears retired presence bits (a deleted attribute's, migration 0007) off their teams' leads,
     * up to `limit` leads a statement, each statement its own transaction holding only lead locks;
     * a bit no lead holds any more is freed for a new attribute. Returns how many leads it cleared.
     */
    async clearRetiredBits(limit: number): Promise<number> {
      const retired = await db.selectFrom('lead_presence_bits_retired').select(['team_id', 'bit']).limit(20).execute();
      let cleared = 0;
      for (const r of retired) {
        const bit = sql`(1::bigint << ${Number(r.bit)}::int)`;
        const res = await sql`
          update leads set value_mask = value_mask & ~${bit}
          where id in (
            select id from leads where team_id = ${r.team_id} and value_mask & ${bit} <> 0
            limit ${limit} for update skip locked
          )`.execute(db);
        const n = Number(res.numAffectedRows ?? 0);
        cleared += n;
        if (n === 0) {
          await sql`
            delete from lead_presence_bits_retired r where r.team_id = ${r.team_id} and r.bit = ${r.bit}
              and not exists (select 1 from leads l where l.team_id = r.team_id and l.value_mask & ${bit} <> 0)`.execute(
            db,
          );
        }
      }
      return cleared;
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
