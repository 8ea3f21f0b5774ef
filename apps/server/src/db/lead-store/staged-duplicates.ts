import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';

// The duplicate counting of a staged chunk's publish (staged-leads.ts), set-based and sized by the
// chunk, not by the team's leads.

/**
 * Whether the planner's statistics miss most of the team's phones: on a first import into a new
 * database, and on a team's first import into a database last analyzed while only other teams'
 * values were in it (the statistics know its id as no row at all). The recount's joins were then
 * planned as nested loops over every phone of the chunk (a 20,000-row chunk took 140 s instead of
 * 0.3 s before the recount probed phone by phone; its other joins and the reads right after the
 * import still plan by these figures). The estimate is the planner's own (EXPLAIN), set against
 * the phones this chunk has just written; the caller then analyzes inside its transaction, which
 * counts the chunk's own rows. An estimate short of the team's older phones is harmless.
 */
export async function phonesUnknownToPlanner(
  tx: Transaction<DB>,
  teamId: number,
  phones: RawBuilder<unknown>,
): Promise<boolean> {
  const written = await sql<{ n: number }>`select count(*)::int as n from ${phones}`.execute(tx);
  const plan = await sql<{ 'QUERY PLAN': unknown }>`
    explain (format json) select 1 from lead_values where team_id = ${sql.lit(teamId)} and type = 'phone'`.execute(tx);
  return plannedRows(plan.rows[0]?.['QUERY PLAN']) < Number(written.rows[0]?.n ?? 0) / 2;
}

/** The row estimate of an `EXPLAIN (FORMAT JSON)` answer (parsed by the driver or still text). */
function plannedRows(plan: unknown): number {
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan?: { 'Plan Rows'?: number } }>;
  return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * Inserts the chunk's leads with decision 007's duplicates already counted, and recounts the
 * team's other leads that share a phone with them. Set-based: only phones the team now holds on
 * more than one lead can change any count, so only the leads holding those are counted. The
 * chunk's values are already written (phase one), so the count needs no lead row; new leads are
 * inserted with their count instead of inserted and then updated (an update of `duplicates` is not
 * HOT: it writes every index of `leads` again). The update cannot see the rows the same statement
 * inserts, so it changes only earlier leads.
 */
export async function insertCountingDuplicates(
  tx: Transaction<DB>,
  teamId: number,
  lead: RawBuilder<unknown>,
  staged: RawBuilder<unknown>,
  range: RawBuilder<unknown>,
  phones: RawBuilder<unknown>,
): Promise<number> {
  const r = await countingInsertStatement(teamId, lead, staged, range, phones).execute(tx);
  return Number(r.rows[0].n);
}

/** The statement of `insertCountingDuplicates`, apart so that its plan can be read (EXPLAIN). */
export function countingInsertStatement(
  teamId: number,
  lead: RawBuilder<unknown>,
  staged: RawBuilder<unknown>,
  range: RawBuilder<unknown>,
  phones: RawBuilder<unknown>,
): RawBuilder<{ n: number }> {
  return sql<{ n: number }>`
    with chunk_phones as (
      select distinct p.value from ${phones}
    ), holders as (
      -- Each of the chunk's phones looked up in the team's phone index, one probe each (the fence
      -- keeps the lookup per phone): the cost follows the chunk. Planned as a join, the recount
      -- read every phone of the team for every chunk (the embedded database scanned all values).
      select c.value, h.lead_id from chunk_phones c
      cross join lateral (
        select lv.lead_id from lead_values lv
        where lv.team_id = ${teamId} and lv.type = 'phone' and lv.value = c.value
        offset 0
      ) h
    ), counted as (
      -- Each holder against the other holders of the same phone: a phone nobody else holds joins
      -- nothing, so only leads sharing one are counted (one join: ~20% off a chunk of duplicates
      -- against first finding the shared phones and the pairs holding them).
      select h.lead_id, count(distinct o.lead_id) as n
      from holders h join holders o on o.value = h.value and o.lead_id <> h.lead_id
      group by h.lead_id
    ), earlier_phones as (
      -- A new lead's phones are all the chunk's, so its count above is whole. An earlier lead may
      -- hold phones the chunk lacks (two phone columns, or a second phone added by hand): it is
      -- counted again over all of them. Only earlier leads exist yet (this statement's inserts are
      -- not seen), and only those sharing a phone of the chunk.
      select c.lead_id, lv.value from counted c
      join leads l on l.id = c.lead_id and l.team_id = ${teamId}
      join lead_values lv on lv.lead_id = c.lead_id and lv.type = 'phone'
    ), recounted as materialized (
      -- Materialized: inlined into the update below, a planner that believes the team has no
      -- leads (statistics from before a take-back deleted them) ran it once per lead of the team,
      -- 36,000,000 probes for a 1,000-lead chunk (80 s instead of 10 s for 12,000 phones).
      select e.lead_id, count(distinct o.lead_id) as n from earlier_phones e
      cross join lateral (
        select lv.lead_id from lead_values lv
        where lv.team_id = ${teamId} and lv.type = 'phone' and lv.value = e.value
        offset 0
      ) o
      where o.lead_id <> e.lead_id
      group by e.lead_id
    ), inserted as (
      insert into leads (id, team_id, source_id, list_id, status, value_mask, duplicates) overriding system value
      select s.lead_id, ${lead}, coalesce(c.n, 0) from ${staged} left join counted c on c.lead_id = s.lead_id
      where ${range} order by s.row_no
      returning 1
    ), updated as (
      update leads l set duplicates = r.n from recounted r
      where l.id = r.lead_id and l.team_id = ${teamId} and l.duplicates <> r.n
      returning 1
    )
    select (select count(*) from inserted)::int as n`;
}
