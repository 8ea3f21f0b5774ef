import { type Kysely, sql } from 'kysely';

// The bulk tables (leads, lead_values, lead_logs) lose their per-row foreign keys: an import of a
// million rows paid five to seven RI trigger calls a lead (a lookup and a row lock each), about
// 40% of its publish time (decision 009). Integrity is kept by statement-level triggers instead:
//  - deletes cascade as before (a lead takes its values and Timeline, a list or source its leads,
//    an attribute its values, a user leaves the Timeline as nobody), once per statement;
//  - a new lead must belong to an existing list of its team and source, checked once per
//    statement with one lock per list (as the key would, but not once per lead).
// Values and Timeline entries are written only for a lead the same transaction created or has
// locked (imports.staging, leads.repository), and for attributes it has locked.
const dropped = [
  ['leads', 'leads_team_id_fkey'],
  ['leads', 'leads_source_id_fkey'],
  ['leads', 'leads_list_id_fkey'],
  ['lead_values', 'lead_values_lead_id_fkey'],
  ['lead_values', 'lead_values_attribute_id_fkey'],
  ['lead_logs', 'lead_logs_lead_id_fkey'],
  ['lead_logs', 'lead_logs_user_id_fkey'],
] as const;

const cascades = [
  {
    table: 'leads',
    name: 'herald_leads_deleted',
    body: `delete from lead_values v using old_rows o where v.lead_id = o.id;
      delete from lead_logs g using old_rows o where g.lead_id = o.id;`,
  },
  {
    table: 'lists',
    name: 'herald_lists_deleted',
    body: 'delete from leads l using old_rows o where l.list_id = o.id;',
  },
  {
    table: 'sources',
    name: 'herald_sources_deleted',
    body: 'delete from leads l using old_rows o where l.source_id = o.id;',
  },
  {
    table: 'teams',
    name: 'herald_teams_deleted',
    body: 'delete from leads l using old_rows o where l.team_id = o.id;',
  },
  {
    table: 'lead_attributes',
    name: 'herald_lead_attributes_deleted',
    body: 'delete from lead_values v using old_rows o where v.attribute_id = o.id;',
  },
  {
    table: 'users',
    name: 'herald_users_deleted',
    body: 'update lead_logs g set user_id = null from old_rows o where g.user_id = o.id;',
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, constraint] of dropped) {
    await sql.raw(`alter table ${table} drop constraint if exists ${constraint}`).execute(db);
  }
  for (const c of cascades) {
    await sql
      .raw(`create function ${c.name}() returns trigger language plpgsql as $$
      begin
        ${c.body}
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger ${c.table}_cascade_delete after delete on ${c.table} referencing old table as old_rows
      for each statement execute function ${c.name}()`)
      .execute(db);
  }
  // Leads never change list or source after insert (no code updates them), so inserts are checked.
  // The lock comes first: a list being deleted is waited for, then found missing; a list locked
  // here is deleted only after this commits, and its delete then sees these leads and takes them.
  await sql`
    create function herald_leads_check() returns trigger language plpgsql as $$
    declare missing bigint;
    begin
      perform 1 from lists l where l.id in (select distinct list_id from new_rows) for key share of l;
      select n.list_id into missing from (select distinct team_id, source_id, list_id from new_rows) n
      where not exists (
        select 1 from lists l where l.id = n.list_id and l.team_id = n.team_id and l.source_id = n.source_id
      ) limit 1;
      if found then
        raise foreign_key_violation using message = format('list %s of the new leads does not exist in their team and source', missing);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger leads_check_insert after insert on leads referencing new table as new_rows
    for each statement execute function herald_leads_check()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists leads_check_insert on leads`.execute(db);
  await sql`drop function if exists herald_leads_check()`.execute(db);
  for (const c of cascades) {
    await sql.raw(`drop trigger if exists ${c.table}_cascade_delete on ${c.table}`).execute(db);
    await sql.raw(`drop function if exists ${c.name}()`).execute(db);
  }
  await sql`alter table leads add constraint leads_team_id_fkey foreign key (team_id) references teams (id) on delete cascade,
    add constraint leads_source_id_fkey foreign key (source_id) references sources (id) on delete cascade,
    add constraint leads_list_id_fkey foreign key (list_id) references lists (id) on delete cascade`.execute(db);
  await sql`alter table lead_values add constraint lead_values_lead_id_fkey foreign key (lead_id) references leads (id) on delete cascade,
    add constraint lead_values_attribute_id_fkey foreign key (attribute_id) references lead_attributes (id) on delete cascade`.execute(
    db,
  );
  await sql`alter table lead_logs add constraint lead_logs_lead_id_fkey foreign key (lead_id) references leads (id) on delete cascade,
    add constraint lead_logs_user_id_fkey foreign key (user_id) references users (id) on delete set null`.execute(db);
}
