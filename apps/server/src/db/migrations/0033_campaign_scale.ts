import { type Kysely, sql } from 'kysely';

// The campaign recipients statement at scale (decision 036). A phone is blocked when it is banned
// or held by a blacklisted lead; both are few among a team's leads, and the statement used to find
// them by reading every phone value and every lead of the team (a third of its time at 1,000,000
// leads). These partial indexes hold only those few rows, so the blocked set costs milliseconds;
// the engine's check of queued rows against bans reads them too.
// `campaigns.recipients_through`: a start fixes its recipients a chunk of lead ids per transaction,
// sending the first chunk's messages while the rest are fixed; it holds the team's last lead id at
// the start (leads added later are not recipients) until every chunk is fixed, then null.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table campaigns add column if not exists recipients_through bigint`.execute(db);
  await sql`create index if not exists leads_blacklisted_idx on leads (team_id) where status = 'blacklisted'`.execute(
    db,
  );
  await sql`create index if not exists lead_values_banned_phone_idx on lead_values (team_id, value)
    where type = 'phone' and ban is true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists lead_values_banned_phone_idx`.execute(db);
  await sql`drop index if exists leads_blacklisted_idx`.execute(db);
  await sql`alter table campaigns drop column if exists recipients_through`.execute(db);
}
