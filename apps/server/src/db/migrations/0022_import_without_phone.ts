import { type Kysely, sql } from 'kysely';

// Imported leads that hold no phone (an e-mail-only row): counted apart so the import says so
// instead of leaving them to be found later (decision 014, "What the import's counters count").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_files add column leads_without_phone integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_files drop column leads_without_phone`.execute(db);
}
