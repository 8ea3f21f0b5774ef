import { type Kysely, sql } from 'kysely';

// Imports can be cancelled (decision 009, "Cancelling"): `cancelling` while the leads it has
// published are taken back, then `cancelled`; the process of a cancelled job ends `cancelled`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_files drop constraint import_files_status_check, add constraint import_files_status_check
    check (status in ('uploaded', 'queued', 'parsing', 'resolving', 'completed', 'failed', 'cancelling', 'cancelled'))`.execute(
    db,
  );
  await sql`drop index if exists import_files_running_idx`.execute(db);
  await sql`create index import_files_running_idx on import_files (status)
    where status in ('queued', 'parsing', 'resolving', 'cancelling')`.execute(db);
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'completed', 'failed', 'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'completed', 'failed'))`.execute(db);
  await sql`drop index if exists import_files_running_idx`.execute(db);
  await sql`create index import_files_running_idx on import_files (status)
    where status in ('queued', 'parsing', 'resolving')`.execute(db);
  await sql`alter table import_files drop constraint import_files_status_check, add constraint import_files_status_check
    check (status in ('uploaded', 'queued', 'parsing', 'resolving', 'completed', 'failed'))`.execute(db);
}
