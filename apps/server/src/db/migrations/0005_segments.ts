import { type Kysely, sql } from 'kysely';

// Audiences (root segments) and their child segments, the frozen memberships of segments that do
// not update dynamically, and CSV exports (decision 010).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('segments')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    // Deleting a segment deletes its children: a child means nothing without what it narrows.
    .addColumn('parent_id', 'bigint', (c) => c.references('segments.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ignore_new_leads', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('conditions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // Bumped on every save of name, switch or conditions: cached counts of the segment and its
    // descendants are keyed by the versions of their chain, so a saved change shows at once.
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('frozen_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('segments_team_parent_idx')
    .on('segments')
    .columns(['team_id', 'parent_id', 'created_at'])
    .execute();
  await db.schema.createIndex('segments_parent_idx').on('segments').column('parent_id').execute();

  // Members of a frozen segment, taken when its conditions are saved. A deleted lead leaves by
  // cascade; leads that match later are not added.
  await db.schema
    .createTable('segment_members')
    .addColumn('segment_id', 'bigint', (c) => c.notNull().references('segments.id').onDelete('cascade'))
    .addColumn('lead_id', 'bigint', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('segment_members_pkey', ['segment_id', 'lead_id'])
    .execute();
  await db.schema.createIndex('segment_members_lead_idx').on('segment_members').column('lead_id').execute();

  await db.schema
    .createTable('exports')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    // The file outlives its segment: a deleted audience's export can still be downloaded.
    .addColumn('segment_id', 'bigint', (c) => c.references('segments.id').onDelete('set null'))
    .addColumn('process_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('request', 'jsonb', (c) => c.notNull())
    .addColumn('stored_name', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'completed', 'failed')`),
    )
    .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('exports_team_user_idx')
    .on('exports')
    .columns(['team_id', 'user_id', 'id desc'])
    .execute();

  // Audience filters the lead indexes of 0003 do not serve (plans checked at 1M leads, decision 010):
  // presence of an attribute (empty / not_empty) as a merge over lead ids, and duplicate counts.
  await db.schema
    .createIndex('lead_values_attribute_idx')
    .on('lead_values')
    .columns(['attribute_id', 'lead_id'])
    .execute();
  await sql`create index leads_team_duplicates_idx on leads (team_id, duplicates)`.execute(db);

  // One CSV cell, safe to open in a spreadsheet: the rule of packages/shared/src/common/csv-cells.ts, in SQL
  // so exports render whole batches in the database (a leading = + - @ tab or CR gets a '). One
  // expression without FROM, so the planner inlines it: a million leads call it millions of times.
  await sql`
    create function herald_csv_cell(cell text) returns text language sql immutable parallel safe as $$
      select case
        when cell ~ '[",;\r\n]|^ | $' then '"' || replace(
          case when left(cell, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || cell else cell end, '"', '""') || '"'
        when left(cell, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || cell
        else cell
      end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists herald_csv_cell(text)`.execute(db);
  await sql`drop index if exists leads_team_duplicates_idx`.execute(db);
  await sql`drop index if exists lead_values_attribute_idx`.execute(db);
  for (const table of ['exports', 'segment_members', 'segments']) await db.schema.dropTable(table).execute();
}
