import { type Kysely, sql } from 'kysely';

// The lead database: attributes, sources, lists, leads, their values and their timeline.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Trigram indexes make "phone or e-mail contains a fragment" fast at a million leads.
  await sql`create extension if not exists pg_trgm`.execute(db);
  // Bumped after every change to a team's leads, so cached counts know when they are stale.
  await db.schema
    .alterTable('teams')
    .addColumn('data_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('lead_attributes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('phone', 'email', 'string', 'number', 'date', 'url')`),
    )
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_system', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('lead_attributes_team_slug_key', ['team_id', 'slug'])
    .execute();
  await sql`create unique index lead_attributes_team_name_key on lead_attributes (team_id, lower(name))`.execute(db);

  // Every team has the system attributes phone and email from its first moment.
  await sql`
    create function herald_add_system_attributes() returns trigger language plpgsql as $$
    begin
      insert into lead_attributes (team_id, name, slug, type, sort_order, is_system)
      values (new.id, 'Phone', 'phone', 'phone', 0, true), (new.id, 'Email', 'email', 'email', 1, true);
      return new;
    end $$`.execute(db);
  await sql`create trigger teams_system_attributes after insert on teams
    for each row execute function herald_add_system_attributes()`.execute(db);
  await sql`insert into lead_attributes (team_id, name, slug, type, sort_order, is_system)
    select id, 'Phone', 'phone', 'phone', 0, true from teams
    union all select id, 'Email', 'email', 'email', 1, true from teams`.execute(db);

  const status = sql`status in ('active', 'inactive')`;
  await db.schema
    .createTable('sources')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(status))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sources_team_idx').on('sources').columns(['team_id', 'id']).execute();

  await db.schema
    .createTable('lists')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('source_id', 'bigint', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(status))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('lists_source_idx').on('lists').columns(['team_id', 'source_id', 'id']).execute();

  await db.schema
    .createTable('leads')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('source_id', 'bigint', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('list_id', 'bigint', (c) => c.notNull().references('lists.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active', 'pending', 'flagged', 'blacklisted', 'inactive')`),
    )
    // How many other leads of the team share one of this lead's phones (kept up to date on writes).
    .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    // Set by carrier lookups (a later capability); the sources screen shows their percentages.
    .addColumn('looked_up', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('leads_team_idx').on('leads').columns(['team_id', 'id desc']).execute();
  await db.schema.createIndex('leads_list_idx').on('leads').columns(['list_id', 'id desc']).execute();
  await db.schema.createIndex('leads_source_idx').on('leads').columns(['source_id', 'created_at']).execute();

  // Counts by list and day of creation (UTC), kept by statement triggers on `leads`, so the sources
  // screen sums a few hundred rows instead of scanning a million leads (decision 007).
  await db.schema
    .createTable('lead_counts')
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('list_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flagged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blacklisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('looked_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('lead_counts_pkey', ['team_id', 'list_id', 'day'])
    .execute();
  await db.schema.createIndex('lead_counts_source_idx').on('lead_counts').columns(['team_id', 'source_id']).execute();
  const tally = (rows: string, sign: string) => `
      insert into lead_counts as c (team_id, source_id, list_id, day, total, duplicate, flagged, blacklisted, looked_up, verified)
      select team_id, source_id, list_id, (created_at at time zone 'UTC')::date,
        ${sign}count(*), ${sign}count(*) filter (where duplicates > 0),
        ${sign}count(*) filter (where status = 'flagged'), ${sign}count(*) filter (where status = 'blacklisted'),
        ${sign}count(*) filter (where looked_up), ${sign}count(*) filter (where verified)
      from ${rows} group by 1, 2, 3, 4
      on conflict (team_id, list_id, day) do update set
        total = c.total + excluded.total, duplicate = c.duplicate + excluded.duplicate,
        flagged = c.flagged + excluded.flagged, blacklisted = c.blacklisted + excluded.blacklisted,
        looked_up = c.looked_up + excluded.looked_up, verified = c.verified + excluded.verified;`;
  await sql
    .raw(`
    create function herald_tally_leads() returns trigger language plpgsql as $$
    begin
      -- PL/pgSQL plans each branch when first run, so the transition table a branch names exists.
      if tg_op in ('UPDATE', 'DELETE') then ${tally('old_rows', '-')} end if;
      if tg_op in ('UPDATE', 'INSERT') then ${tally('new_rows', '')} end if;
      return null;
    end $$`)
    .execute(db);
  await sql`create trigger leads_tally_insert after insert on leads referencing new table as new_rows
    for each statement execute function herald_tally_leads()`.execute(db);
  await sql`create trigger leads_tally_update after update on leads referencing old table as old_rows new table as new_rows
    for each statement execute function herald_tally_leads()`.execute(db);
  await sql`create trigger leads_tally_delete after delete on leads referencing old table as old_rows
    for each statement execute function herald_tally_leads()`.execute(db);

  await db.schema
    .createTable('lead_values')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('attribute_id', 'bigint', (c) => c.notNull().references('lead_attributes.id').onDelete('cascade'))
    // The attribute's type, copied so duplicate and search queries need no join.
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('status_label', 'text')
    .addColumn('carrier_name', 'text')
    .addColumn('carrier_type', 'text')
    .addColumn('clicked', 'boolean')
    .addColumn('ban', 'boolean')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('lead_values_lead_idx').on('lead_values').columns(['lead_id', 'attribute_id']).execute();
  await sql`create index lead_values_phone_idx on lead_values (team_id, value) where type = 'phone'`.execute(db);
  await sql`create index lead_values_trgm_idx on lead_values using gin (value gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('lead_logs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('diff_log', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('lead_logs_lead_idx').on('lead_logs').columns(['lead_id', 'id desc']).execute();

  await db.schema
    .createTable('validation_templates')
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('validation_templates_pkey', ['team_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'validation_templates',
    'lead_logs',
    'lead_values',
    'lead_counts',
    'leads',
    'lists',
    'sources',
    'lead_attributes',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop trigger if exists teams_system_attributes on teams`.execute(db);
  await sql`drop function if exists herald_add_system_attributes()`.execute(db);
  await sql`drop function if exists herald_tally_leads()`.execute(db);
  await db.schema.alterTable('teams').dropColumn('data_version').execute();
}
