import { type Kysely, sql } from 'kysely';

// Campaigns live (decision 034):
// - a started campaign is a process in its launcher's header popover: `campaigns.process_id` is
//   that `processes` row, kept in step with the campaign's status and progress by the engine;
// - the team's frequency cap across campaigns: a phone gets at most `campaign_cap_messages`
//   campaign messages in `campaign_cap_hours` hours; null messages: off (the default);
// - the cap counts a phone's campaign messages by team and phone, so they get an index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table campaigns add column process_id bigint references processes(id) on delete set null`.execute(db);
  await sql`alter table teams
    add column campaign_cap_messages integer check (campaign_cap_messages > 0),
    add column campaign_cap_hours integer not null default 24 check (campaign_cap_hours between 1 and 8784)`.execute(
    db,
  );
  await sql`create index messages_campaign_phone_idx on messages (team_id, phone, called_at)
    where kind = 'campaign_step'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index messages_campaign_phone_idx`.execute(db);
  await sql`alter table teams drop column campaign_cap_hours, drop column campaign_cap_messages`.execute(db);
  await sql`alter table campaigns drop column process_id`.execute(db);
}
