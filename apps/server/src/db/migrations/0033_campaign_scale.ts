import { type Kysely, sql } from 'kysely';

// The campaign recipients statement at scale (decision 036). A phone is blocked when it is banned
// or held by a blacklisted lead; both are few among a team's leads, and the statement used to find
// them by reading every phone value and every lead of the team (a third of its time at 1,000,000
// leads). These partial indexes hold only those few rows, so the blocked set costs milliseconds;
// the engine's check of queued rows against bans reads them too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists leads_blacklisted_idx on leads (team_id) where status = 'blacklisted'`.execute(
    db,
  );
  await sql`create index if not exists lead_values_banned_phone_idx on lead_values (team_id, value)
    where type = 'phone' and ban is true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists lead_values_banned_phone_idx`.execute(db);
  await sql`drop index if exists leads_blacklisted_idx`.execute(db);
}
