import { type Kysely, sql } from 'kysely';

// Lookup results used across the product (decision 041), over the team's results cache
// `phone_lookups` (migration 0036):
// - `leads.looked_up` / `leads.verified` (there since 0003, feeding `lead_counts`, hence the sources'
//   and lists' percentages) are kept by triggers: a lead is looked up when one of its phones has a
//   result, verified when one has a `valid` one. A result written or removed (the lookup engine) updates
//   the leads holding its phone; a phone value added, changed or removed updates its lead. Bulk value
//   writers (an import's chunk, cascades) turn the value triggers off (`herald.bulk_values`, 0007)
//   and an import sets its own leads' flags when it inserts them (staged-leads.ts).
// - `campaigns.skip_invalid_phones`: the campaign leaves out phones whose result says invalid or
//   not a mobile (on by default; phones without a result are sent to as before);
//   `campaign_recipients.skip_reason` gains `not_valid_mobile`.
// - `import_files.check_mobile_status`: the import starts a lookup of its list when it completes.
const SKIP_REASONS = [
  'blacklisted',
  'opted_out',
  'banned',
  'ignored_format',
  'no_valid_phone',
  'duplicate_phone',
  'capped',
  'limit_cap',
];

const reasons = (list: string[]) => sql.raw(list.map((r) => `'${r}'`).join(', '));

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table campaigns add column if not exists skip_invalid_phones boolean not null default true`.execute(
    db,
  );
  await sql`alter table import_files add column if not exists check_mobile_status boolean not null default false`.execute(
    db,
  );
  await sql`alter table campaign_recipients drop constraint if exists campaign_recipients_skip_reason_check`.execute(
    db,
  );
  await sql`alter table campaign_recipients add constraint campaign_recipients_skip_reason_check
    check (skip_reason in (${reasons([...SKIP_REASONS, 'not_valid_mobile'])}))`.execute(db);

  // The leads' flags recomputed from all their phones, leads locked in id order first (two writers
  // locking the same leads in the same order queue instead of deadlocking). Only leads whose flags
  // change are written, so the `lead_counts` tally moves only for them.
  await sql`
    create function herald_lead_lookup_flags(ids bigint[]) returns void language plpgsql as $$
    begin
      if ids is null or cardinality(ids) = 0 then return; end if;
      perform 1 from leads where id = any(ids) order by id for update;
      update leads l set looked_up = f.looked_up, verified = f.verified
      from (
        select l2.id,
          coalesce(bool_or(pl.phone is not null), false) as looked_up,
          coalesce(bool_or(pl.status_label = 'valid'), false) as verified
        from leads l2
        left join lead_values v on v.lead_id = l2.id and v.type = 'phone'
        left join phone_lookups pl on pl.team_id = v.team_id and pl.phone = v.value
        where l2.id = any(ids)
        group by l2.id
      ) f
      where l.id = f.id and (l.looked_up <> f.looked_up or l.verified <> f.verified);
    end $$`.execute(db);

  await sql`
    create function herald_phone_lookups_written() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform herald_lead_lookup_flags(array(
          select distinct v.lead_id from old_rows n
          join lead_values v on v.team_id = n.team_id and v.type = 'phone' and v.value = n.phone));
      else
        perform herald_lead_lookup_flags(array(
          select distinct v.lead_id from new_rows n
          join lead_values v on v.team_id = n.team_id and v.type = 'phone' and v.value = n.phone));
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger phone_lookups_flags_insert after insert on phone_lookups referencing new table as new_rows
    for each statement execute function herald_phone_lookups_written()`.execute(db);
  await sql`create trigger phone_lookups_flags_update after update on phone_lookups referencing new table as new_rows
    for each statement execute function herald_phone_lookups_written()`.execute(db);
  await sql`create trigger phone_lookups_flags_delete after delete on phone_lookups referencing old table as old_rows
    for each statement execute function herald_phone_lookups_written()`.execute(db);

  // A hand-made value's phone: the team's results are asked only when it has any (most teams
  // without lookups pay one index probe per statement).
  const valuesChanged = (rows: string) => `
      if current_setting('herald.bulk_values', true) = 'on' then return null; end if;
      perform herald_lead_lookup_flags(array(
        select distinct r.lead_id from ${rows} r
        where r.type = 'phone' and exists (select 1 from phone_lookups pl where pl.team_id = r.team_id)));
      return null;`;
  await sql
    .raw(`create function herald_lead_values_lookup_new() returns trigger language plpgsql as $$
    begin ${valuesChanged('new_rows')} end $$`)
    .execute(db);
  await sql
    .raw(`create function herald_lead_values_lookup_old() returns trigger language plpgsql as $$
    begin ${valuesChanged('old_rows')} end $$`)
    .execute(db);
  await sql`create trigger lead_values_lookup_insert after insert on lead_values referencing new table as new_rows
    for each statement execute function herald_lead_values_lookup_new()`.execute(db);
  await sql`create trigger lead_values_lookup_update after update on lead_values referencing new table as new_rows
    for each statement execute function herald_lead_values_lookup_new()`.execute(db);
  await sql`create trigger lead_values_lookup_delete after delete on lead_values referencing old table as old_rows
    for each statement execute function herald_lead_values_lookup_old()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['lead_values_lookup_insert', 'lead_values_lookup_update', 'lead_values_lookup_delete']) {
    await sql.raw(`drop trigger if exists ${t} on lead_values`).execute(db);
  }
  for (const t of ['phone_lookups_flags_insert', 'phone_lookups_flags_update', 'phone_lookups_flags_delete']) {
    await sql.raw(`drop trigger if exists ${t} on phone_lookups`).execute(db);
  }
  await sql`drop function if exists herald_lead_values_lookup_new()`.execute(db);
  await sql`drop function if exists herald_lead_values_lookup_old()`.execute(db);
  await sql`drop function if exists herald_phone_lookups_written()`.execute(db);
  await sql`drop function if exists herald_lead_lookup_flags(bigint[])`.execute(db);
  await sql`delete from campaign_recipients where skip_reason = 'not_valid_mobile'`.execute(db);
  await sql`alter table campaign_recipients drop constraint if exists campaign_recipients_skip_reason_check`.execute(
    db,
  );
  await sql`alter table campaign_recipients add constraint campaign_recipients_skip_reason_check
    check (skip_reason in (${reasons(SKIP_REASONS)}))`.execute(db);
  await sql`alter table import_files drop column if exists check_mobile_status`.execute(db);
  await sql`alter table campaigns drop column if exists skip_invalid_phones`.execute(db);
}
