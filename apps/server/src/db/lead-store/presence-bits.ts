import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

// `leads.value_mask`: a bit per attribute the lead has a value of (migration 0007). Statement
// triggers on lead_values keep it on every ordinary write; the bulk writers below keep it themselves.

/**
 * Turns the value triggers of migration 0007 off for the rest of the transaction: the writer sets
 * the masks itself (an import inserts its leads with their masks), so the triggers' update of every
 * lead the values touch is not paid.
 */
export async function writeMasksInBulk(tx: Transaction<DB>): Promise<void> {
  await sql`set local herald.bulk_values = 'on'`.execute(tx);
}

/**
 * A row's mask as SQL: for each `(bit, value)` pair, the bit when the value is not null. Several
 * values may share one bit (two columns of one attribute); attributes without a bit (a team's 64th
 * and later) have none.
 */
export function maskOf(present: Array<{ bit: number | null | undefined; value: RawBuilder<unknown> }>) {
  const bits = present.flatMap(({ bit, value }) =>
    bit === null || bit === undefined
      ? []
      : [sql`case when ${value} is not null then 1::bigint << ${sql.lit(Number(bit))} else 0 end`],
  );
  return bits.length === 0 ? sql`0::bigint` : sql.join(bits, sql` | `);
}

/**
 * Clears retired presence bits (a deleted attribute's, migration 0007) off their teams' leads,
 * up to `limit` leads a statement, each statement its own transaction holding only lead locks;
 * a bit no lead holds any more is freed for a new attribute. Returns how many leads it cleared.
 * No data version bump: no query reads a retired bit (its attribute is gone).
 */
export async function clearRetiredPresenceBits(db: Kysely<DB>, limit: number): Promise<number> {
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
}
