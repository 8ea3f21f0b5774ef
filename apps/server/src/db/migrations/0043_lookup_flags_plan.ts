import { type Kysely, sql } from 'kysely';

// After every batch of lookup results the leads holding those phones have their looked-up and
// verified flags recomputed (migration 0039, decision 041). 0039's recount joined each lead's values
// on `type = 'phone'`, which lets the planner AND the partial phone index (every phone of the team)
// into each lead's probe; with statistics that do not know the leads (the embedded database has no
// autovacuum) it did, and a batch of 250 results took 0.9–1.1 s at 100,000 phones, holding the
// embedded database's one connection (the lookups benchmark: 250 lookups/s and the session waiting
// seconds, against 1,192/s and a p99 of 114 ms after). The values are now found by (lead, attribute)
// alone, the team's phone attributes named through `lead_attributes`: one probe per lead whatever
// the statistics. The leads of the written phones are likewise found phone by phone through the
// phone index (a lateral probe), not by a join whose plan rests on a transition table's unknown size.

const WRITTEN = (rows: (side: string) => string) => `
    create or replace function herald_phone_lookups_written() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform herald_lead_lookup_flags(array(${rows('old_rows')}));
      else
        perform herald_lead_lookup_flags(array(${rows('new_rows')}));
      end if;
      return null;
    end $$`;

const FLAGS = (phoneValues: string) => `
    create or replace function herald_lead_lookup_flags(ids bigint[]) returns void language plpgsql as $$
    begin
      if ids is null or cardinality(ids) = 0 then return; end if;
      perform 1 from leads where id = any(ids) order by id for update;
      update leads l set looked_up = f.looked_up, verified = f.verified
      from (
        select l2.id,
          coalesce(bool_or(pl.phone is not null), false) as looked_up,
          coalesce(bool_or(pl.status_label = 'valid'), false) as verified
        from leads l2
        left join lead_values v on ${phoneValues}
        left join phone_lookups pl on pl.team_id = v.team_id and pl.phone = v.value
        where l2.id = any(ids)
        group by l2.id
      ) f
      where l.id = f.id and (l.looked_up <> f.looked_up or l.verified <> f.verified);
    end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      FLAGS(`v.lead_id = l2.id and v.attribute_id = any(array(
          select a.id from lead_attributes a where a.team_id = l2.team_id and a.type = 'phone'))`),
    )
    .execute(db);
  await sql
    .raw(
      WRITTEN(
        (side) => `select distinct v.lead_id from ${side} n cross join lateral (select x.lead_id from lead_values x
          where x.team_id = n.team_id and x.type = 'phone' and x.value = n.phone) v`,
      ),
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(FLAGS(`v.lead_id = l2.id and v.type = 'phone'`)).execute(db);
  await sql
    .raw(
      WRITTEN(
        (side) => `select distinct v.lead_id from ${side} n
          join lead_values v on v.team_id = n.team_id and v.type = 'phone' and v.value = n.phone`,
      ),
    )
    .execute(db);
}
