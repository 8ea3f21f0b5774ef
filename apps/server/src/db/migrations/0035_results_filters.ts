import { type Kysely, sql } from 'kysely';

// The results filters (decision 039) read a lead's campaign messages by their SMS status and its
// human clicks by time. These indexes let the audience count and first page find those leads
// without reading every message or link:
// - a team's campaign messages by campaign, the spec SMS status (the very expression the filter
//   compiles, see `SMS_STATUS_SQL` in modules/segments/results-filters.ts: the planner matches it by
//   its parse tree) and lead, for "delivered in campaign X" and "delivered in any campaign", read
//   from the index alone;
// - a team's clicked links by the first human click's time, for "engaged in the last 30 days";
// - a team's unsubscribed links by lead.
const SMS_STATUS = `(case state
  when 'pending' then 'queued'
  when 'claimed' then 'sending'
  when 'unknown' then null
  when 'failed' then case when left(coalesce(error_code, ''), 8) = 'skipped_' then null else 'failed' end
  else case when status is null then 'sent' when status = 'undelivered' then 'failed' else status end
end)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists messages_campaign_sms_status_idx
    on messages (team_id, campaign_id, ${sql.raw(SMS_STATUS)}, lead_id) where kind = 'campaign_step'`.execute(db);
  await sql`create index if not exists short_links_clicked_at_idx
    on short_links (team_id, first_clicked_at, lead_id) where kind = 'link' and first_clicked_at is not null`.execute(
    db,
  );
  await sql`create index if not exists short_links_unsubscribed_idx
    on short_links (team_id, lead_id) where kind = 'unsubscribe' and unsubscribed_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists short_links_unsubscribed_idx`.execute(db);
  await sql`drop index if exists short_links_clicked_at_idx`.execute(db);
  await sql`drop index if exists messages_campaign_sms_status_idx`.execute(db);
}
