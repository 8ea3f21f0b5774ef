import { type Kysely, sql } from 'kysely';

// A process can be `failing` (a broken file's published leads are being taken back) or `cancelling`
// (a cancelled import's are), so the header's popover says what the import's modal and history say
// instead of "Running" with a bar that climbs while leads disappear (decision 009, "Cancelling").
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'failing', 'cancelling', 'completed', 'failed',
      'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update processes set status = 'running' where status in ('failing', 'cancelling')`.execute(db);
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'completed', 'failed', 'cancelled'))`.execute(db);
}
