import { type Kysely, sql } from 'kysely';

// An imported lead's "created" Timeline entry keeps the values it was created with as a plain
// text array beside the import it came from, instead of a jsonb diff built for every lead: the
// diff is rendered when the Timeline is read, with the column names the import recorded
// (`import_files.staging_columns`). A jsonb diff cost ~1.9 s and ~920 bytes a lead to write
// (a million-lead import: ~900 MB of table and as much WAL); the array ~0.4 s and ~260 bytes
// (decision 009, "Timeline of imported leads").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lead_logs add column import_file_id bigint, add column import_values text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lead_logs drop column import_values, drop column import_file_id`.execute(db);
}
