import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * Takes the team's duplicate lock for the rest of the transaction. Every write that adds or removes
 * a phone and then recounts takes it before it locks any lead, so one recount sees the phones the
 * other committed (two imports' chunks, an import and a hand-made lead, a cancel's take-back); a
 * recount without it could miss a phone committed meanwhile and leave a count one short until the
 * next write. Taken first, it cannot deadlock with the lead rows a recount updates.
 */
export async function holdTeamDuplicates(db: Transaction<DB>, teamId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`herald.lead_duplicates.${teamId}`}, 0))`.execute(db);
}

/**
 * Recomputes `duplicates` (decision 007) for the leads that `affected` selects (a query with a
 * `lead_id` column): how many other leads of the team share any of their phones. Only counts that
 * change are written. Every write that adds or removes a phone ends with it (an import's chunk
 * counts its own leads as it inserts them, staged-leads.ts).
 */
export async function recountDuplicates(
  db: Kysely<DB> | Transaction<DB>,
  teamId: number,
  affected: RawBuilder<unknown>,
): Promise<void> {
  await recountStatement(teamId, affected).execute(db);
}

/** The statement of `recountDuplicates`, apart so that its plan can be read (EXPLAIN). */
export function recountStatement(teamId: number, affected: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    with affected as (${affected}), counted as materialized (
      -- Counted once, then joined to the leads: inlined into the update, stale statistics (a team
      -- whose leads were all deleted since the last analyze) plan it once per lead of the team.
      select a.lead_id, count(distinct o.lead_id) as n
      from affected a
      left join lead_values mine on mine.lead_id = a.lead_id and mine.type = 'phone'
      left join lead_values o on o.team_id = ${teamId} and o.type = 'phone' and o.value = mine.value and o.lead_id <> a.lead_id
      group by a.lead_id
    )
    update leads l set duplicates = c.n from counted c
    where l.id = c.lead_id and l.team_id = ${teamId} and l.duplicates <> c.n`;
}

/**
 * Recounts every lead that holds one of `phones`, and `leadIds` (a lead that just lost or gained
 * one): the small writes, whose phones are few and known.
 */
export async function recountHolders(
  db: Kysely<DB> | Transaction<DB>,
  teamId: number,
  phones: string[],
  leadIds: number[],
): Promise<void> {
  if (phones.length === 0 && leadIds.length === 0) return;
  await recountDuplicates(
    db,
    teamId,
    sql`select lead_id from lead_values
      where team_id = ${teamId} and type = 'phone' and value = any(${phones}::text[])
      union select unnest(${leadIds}::bigint[])`,
  );
}

/**
 * Runs `remove`, a delete that takes phone values with it (a list's or source's leads), and then
 * recounts the leads left holding those phones. The phones (a query of a `value` column) are noted
 * in a temporary table first: afterwards no row says which they were, and a big list's million
 * phones do not belong in the server's memory. The caller holds `holdTeamDuplicates`.
 */
export async function removingPhones<T>(
  tx: Transaction<DB>,
  teamId: number,
  phones: RawBuilder<unknown>,
  remove: () => Promise<T>,
): Promise<T> {
  await sql`create temporary table herald_removed_phones on commit drop as ${phones}`.execute(tx);
  await sql`analyze herald_removed_phones`.execute(tx);
  const result = await remove();
  await recountDuplicates(
    tx,
    teamId,
    sql`select distinct lv.lead_id from lead_values lv join herald_removed_phones r on r.value = lv.value
      where lv.team_id = ${teamId} and lv.type = 'phone'`,
  );
  await sql`drop table herald_removed_phones`.execute(tx);
  return result;
}
