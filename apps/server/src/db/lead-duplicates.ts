import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

/**
 * Recomputes `duplicates` (decision 007) for the leads that `affected` selects (a query with a
 * `lead_id` column): how many other leads of the team share any of their phones. Only counts that
 * change are written. Manual lead writes and an import's cancel both end with it.
 */
export async function recountDuplicates(
  db: Kysely<DB> | Transaction<DB>,
  teamId: number,
  affected: RawBuilder<unknown>,
): Promise<void> {
  await sql`
    with affected as (${affected}), counted as (
      select a.lead_id, count(distinct o.lead_id) as n
      from affected a
      left join lead_values mine on mine.lead_id = a.lead_id and mine.type = 'phone'
      left join lead_values o on o.team_id = ${teamId} and o.type = 'phone' and o.value = mine.value and o.lead_id <> a.lead_id
      group by a.lead_id
    )
    update leads l set duplicates = c.n from counted c
    where l.id = c.lead_id and l.team_id = ${teamId} and l.duplicates <> c.n`.execute(db);
}
