import { type Kysely, sql } from 'kysely';

// Imports can be cancelled (decision 009, "Cancelling"): `cancel_queued` until a run takes it (as
// `queued` is to a run), `cancelling` while the leads it has published are taken back, then
// `cancelled`; the process of a cancelled job ends `cancelled`. `staging_columns` records which
// attribute each staging column holds, so a later run reads them right even after an attribute of
// the mapping is deleted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_files drop constraint import_files_status_check, add constraint import_files_status_check
    check (status in ('uploaded', 'queued', 'parsing', 'resolving', 'completed', 'failed', 'cancel_queued',
      'cancelling', 'cancelled'))`.execute(db);
  await sql`alter table import_files add column staging_columns jsonb`.execute(db);
  await sql`drop index if exists import_files_running_idx`.execute(db);
  await sql`create index import_files_running_idx on import_files (status)
    where status in ('queued', 'parsing', 'resolving', 'cancel_queued', 'cancelling')`.execute(db);
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'completed', 'failed', 'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'completed', 'failed'))`.execute(db);
  await sql`drop index if exists import_files_running_idx`.execute(db);
  await sql`create index import_files_running_idx on import_files (status)
    where status in ('queued', 'parsing', 'resolving')`.execute(db);
  await sql`alter table import_files drop column staging_columns`.execute(db);
  await sql`alter table import_files drop constraint import_files_status_check, add constraint import_files_status_check
    check (status in ('uploaded', 'queued', 'parsing', 'resolving', 'completed', 'failed'))`.execute(db);
}
