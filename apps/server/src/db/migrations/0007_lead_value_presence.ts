import { type Kysely, sql } from 'kysely';

// Which attributes a lead has a value of, as bits on the lead itself (decision 010, "Presence
// bits"). An audience's `not_empty` / `empty` conditions, and any count over many leads that
// uses them, then read one narrow row per lead instead of joining a million value rows (a count
// of 900,000 leads with a city went from ~220 ms to ~80 ms on PostgreSQL).
//  - Each attribute of a team gets a bit 0–62 when it is created (the lowest free one); a team's
//    64th attribute and later ones get none, and their conditions ask the values table as before.
//  - `leads.value_mask` holds the bits of the attributes the lead has at least one value of.
//    Statement triggers on lead_values keep it: an insert ORs the new bits in, a delete recounts
//    the lead's remaining values. Writers lock the lead first (0006), so two never race on one.
//  - Bulk writers (an import's chunk, the cascades below) set `herald.bulk_values` for their
//    transaction and write the masks themselves: an import inserts its leads with their masks.
//  - Deleting an attribute retires its bit (lead_presence_bits_retired): no lead is touched in the
//    delete, so it takes no lead lock after the attribute's (a value added by hand locks the lead,
//    then the attribute). A background pass clears the bit off the leads in small batches, then
//    frees it; until then no new attribute gets it, and no query reads it (its attribute is gone).
// Values never move between leads or attributes (no code updates lead_id or attribute_id).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lead_attributes add column presence_bit smallint check (presence_bit between 0 and 62)`.execute(
    db,
  );
  await sql`create unique index lead_attributes_presence_bit_idx on lead_attributes (team_id, presence_bit)`.execute(
    db,
  );
  await sql`
    update lead_attributes a set presence_bit = r.n
    from (select id, row_number() over (partition by team_id order by id) - 1 as n from lead_attributes) r
    where r.id = a.id and r.n < 63`.execute(db);
  await sql`
    create table lead_presence_bits_retired (
      team_id bigint not null references teams (id) on delete cascade,
      bit smallint not null,
      primary key (team_id, bit)
    )`.execute(db);
  await sql`
    create function herald_lead_attribute_bit() returns trigger language plpgsql as $$
    begin
      if new.presence_bit is null then
        -- One team's attributes are numbered one transaction at a time; the unique index backs it.
        perform pg_advisory_xact_lock(hashtextextended('herald.presence_bit.' || new.team_id, 0));
        select min(b) into new.presence_bit from generate_series(0, 62) b
        where not exists (select 1 from lead_attributes a where a.team_id = new.team_id and a.presence_bit = b)
          and not exists (select 1 from lead_presence_bits_retired r where r.team_id = new.team_id and r.bit = b);
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger lead_attributes_presence_bit before insert on lead_attributes
    for each row execute function herald_lead_attribute_bit()`.execute(db);

  await sql`alter table leads add column value_mask bigint not null default 0`.execute(db);
  await sql`
    update leads l set value_mask = m.mask
    from (
      select v.lead_id, bit_or(1::bigint << a.presence_bit) as mask
      from lead_values v join lead_attributes a on a.id = v.attribute_id
      where a.presence_bit is not null group by v.lead_id
    ) m
    where l.id = m.lead_id`.execute(db);

  await sql`
    create function herald_lead_values_added() returns trigger language plpgsql as $$
    begin
      if current_setting('herald.bulk_values', true) = 'on' then return null; end if;
      update leads l set value_mask = l.value_mask | m.bits
      from (
        select n.lead_id, bit_or(1::bigint << a.presence_bit) as bits
        from new_rows n join lead_attributes a on a.id = n.attribute_id
        where a.presence_bit is not null group by n.lead_id
      ) m
      where l.id = m.lead_id and l.value_mask | m.bits <> l.value_mask;
      return null;
    end $$`.execute(db);
  await sql`
    create function herald_lead_values_removed() returns trigger language plpgsql as $$
    begin
      if current_setting('herald.bulk_values', true) = 'on' then return null; end if;
      update leads l set value_mask = m.mask
      from (
        select o.lead_id, coalesce((
          select bit_or(1::bigint << a.presence_bit)
          from lead_values v join lead_attributes a on a.id = v.attribute_id
          where v.lead_id = o.lead_id and a.presence_bit is not null
        ), 0) as mask
        from (select distinct lead_id from old_rows) o
      ) m
      where l.id = m.lead_id and l.value_mask <> m.mask;
      return null;
    end $$`.execute(db);
  await sql`create trigger lead_values_presence_insert after insert on lead_values referencing new table as new_rows
    for each statement execute function herald_lead_values_added()`.execute(db);
  await sql`create trigger lead_values_presence_delete after delete on lead_values referencing old table as old_rows
    for each statement execute function herald_lead_values_removed()`.execute(db);

  // The cascades of 0006, now marking their value deletes as bulk: a deleted lead needs no mask,
  // and a deleted attribute's bit is retired, to be cleared off the leads in the background.
  await sql`
    create or replace function herald_leads_deleted() returns trigger language plpgsql as $$
    declare was text := coalesce(current_setting('herald.bulk_values', true), '');
    begin
      perform set_config('herald.bulk_values', 'on', true);
      delete from lead_values v using old_rows o where v.lead_id = o.id;
      perform set_config('herald.bulk_values', was, true);
      delete from lead_logs g using old_rows o where g.lead_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function herald_lead_attributes_deleted() returns trigger language plpgsql as $$
    declare was text := coalesce(current_setting('herald.bulk_values', true), '');
    begin
      perform set_config('herald.bulk_values', 'on', true);
      delete from lead_values v using old_rows o where v.attribute_id = o.id;
      perform set_config('herald.bulk_values', was, true);
      -- A deleted team's leads are gone with it: nothing to clear.
      insert into lead_presence_bits_retired (team_id, bit)
      select o.team_id, o.presence_bit from old_rows o
      where o.presence_bit is not null and exists (select 1 from teams t where t.id = o.team_id)
      on conflict do nothing;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function herald_leads_deleted() returns trigger language plpgsql as $$
    begin
      delete from lead_values v using old_rows o where v.lead_id = o.id;
      delete from lead_logs g using old_rows o where g.lead_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function herald_lead_attributes_deleted() returns trigger language plpgsql as $$
    begin
      delete from lead_values v using old_rows o where v.attribute_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`drop trigger if exists lead_values_presence_insert on lead_values`.execute(db);
  await sql`drop trigger if exists lead_values_presence_delete on lead_values`.execute(db);
  await sql`drop function if exists herald_lead_values_added()`.execute(db);
  await sql`drop function if exists herald_lead_values_removed()`.execute(db);
  await sql`alter table leads drop column value_mask`.execute(db);
  await sql`drop trigger if exists lead_attributes_presence_bit on lead_attributes`.execute(db);
  await sql`drop function if exists herald_lead_attribute_bit()`.execute(db);
  await sql`drop table if exists lead_presence_bits_retired`.execute(db);
  await sql`drop index if exists lead_attributes_presence_bit_idx`.execute(db);
  await sql`alter table lead_attributes drop column presence_bit`.execute(db);
}
