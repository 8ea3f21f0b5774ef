import { type Kysely, sql } from 'kysely';

// A process's status is the same for every kind of job (queued, running, completed, failed,
// cancelled); a kind names its own steps in `phase`, which the web translates per kind. Imports'
// steps were statuses until now: a row `resolving`, `failing` or `cancelling` is running in that phase.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes add column phase text`.execute(db);
  await sql`alter table processes drop constraint processes_status_check`.execute(db);
  await sql`update processes set phase = status, status = 'running'
    where status in ('resolving', 'failing', 'cancelling')`.execute(db);
  await sql`alter table processes add constraint processes_status_check
    check (status in ('queued', 'running', 'completed', 'failed', 'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes drop constraint processes_status_check`.execute(db);
  await sql`update processes set status = phase
    where status = 'running' and phase in ('resolving', 'failing', 'cancelling')`.execute(db);
  await sql`alter table processes add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'failing', 'cancelling', 'completed', 'failed',
      'cancelled'))`.execute(db);
  await sql`alter table processes drop column phase`.execute(db);
}
