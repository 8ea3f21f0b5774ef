import { type Kysely, sql } from 'kysely';

// A failed row keeps its reason twice: in English (`reason`, what the search and the sort read, as
// before) and as a message code with its params (`reason_message`, what the web translates). Rows
// written before have none; the web shows their English as it is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_failed_rows add column reason_message jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_failed_rows drop column reason_message`.execute(db);
}
