import { type Kysely, sql } from 'kysely';

// Exports survive a crash or restart (decision 010, "Exports after a crash"): a run claims its
// export (attempt + 1) and beats while it writes; a pending export whose run has stopped beating
// is sent again and starts over. Finished files are kept for a while, then removed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exports add column attempt integer not null default 0, add column heartbeat_at timestamptz`.execute(
    db,
  );
  await sql`create index exports_pending_idx on exports (heartbeat_at) where status = 'pending'`.execute(db);
  await sql`create index exports_completed_idx on exports (completed_at) where stored_name is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists exports_completed_idx`.execute(db);
  await sql`drop index if exists exports_pending_idx`.execute(db);
  await sql`alter table exports drop column heartbeat_at, drop column attempt`.execute(db);
}
