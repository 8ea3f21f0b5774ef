import { type Kysely, sql } from 'kysely';

// Imports: the uploaded document, its columns and their mapping, and the rows that failed.
// Parsed rows wait in a staging table of their own (import_rows_<id>_<attempt>, created and
// dropped by the import job) until they are published into leads (decision 009).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_files')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('source_id', 'bigint', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('list_id', 'bigint', (c) => c.notNull().references('lists.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stored_name', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('csv', 'tsv', 'xlsx', 'xls')`))
    .addColumn('encoding', 'text')
    .addColumn('delimiter', 'text')
    .addColumn('black_list', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('preview', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('uploaded')
        .check(sql`status in ('uploaded', 'queued', 'parsing', 'resolving', 'completed', 'failed')`),
    )
    .addColumn('stage', 'text')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mapped_at', 'timestamptz')
    .addColumn('process_id', 'bigint', (c) => c.references('processes.id').onDelete('set null'))
    // Which run owns the import (a resumed run takes a new number) and when it last showed life.
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('heartbeat_at', 'timestamptz')
    // Set when every row is parsed into the staging table; from then on the run only publishes.
    .addColumn('parsed_at', 'timestamptz')
    .addColumn('staging_table', 'text')
    .addColumn('staged_rows', 'integer', (c) => c.notNull().defaultTo(0))
    // The highest staged row number already published into leads (publishing resumes after it).
    .addColumn('published_upto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parsed_leads_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leads_processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leads_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates_resolved_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leads_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ignored_phones_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid_format_phones_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('import_files_team_idx')
    .on('import_files')
    .columns(['team_id', 'created_at desc'])
    .execute();
  await sql`create index import_files_running_idx on import_files (status)
    where status in ('queued', 'parsing', 'resolving')`.execute(db);

  await db.schema
    .createTable('import_file_attributes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('import_file_id', 'bigint', (c) => c.notNull().references('import_files.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('col_position', 'integer', (c) => c.notNull())
    .addColumn('lead_attribute_id', 'bigint', (c) => c.references('lead_attributes.id').onDelete('set null'))
    .addColumn('ignored', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('import_file_attributes_file_idx')
    .on('import_file_attributes')
    .columns(['import_file_id', 'col_position'])
    .execute();

  await db.schema
    .createTable('import_failed_rows')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('import_file_id', 'bigint', (c) => c.notNull().references('import_files.id').onDelete('cascade'))
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // [{ attribute_id, value }] of the mapped columns, as the file had them.
    .addColumn('cells', 'jsonb', (c) => c.notNull())
    .addUniqueConstraint('import_failed_rows_row_key', ['import_file_id', 'row_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_failed_rows').execute();
  await db.schema.dropTable('import_file_attributes').execute();
  await db.schema.dropTable('import_files').execute();
}
