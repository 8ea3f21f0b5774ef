import { type Kysely, sql } from 'kysely';

// A campaign message's spec SMS status kept in the row (decision 039, "Speed"). Migration 0035
// indexed the expression; PostgreSQL cannot answer an expression from such an index alone, so
// "delivered in campaign X" visited every matching message's row (807,500 of 950,000 in the
// audience benchmark), and the planner, with no statistics for the expression, took 807,500 rows for
// 4,750 and probed the recipients once a lead. A stored generated column is computed on every write
// of the row by the database itself (no writer can forget it), has statistics of its own, and its
// index answers the filter with an index-only scan. Adding it rewrites the messages table once.
//
// The text is the one 0035 indexed, `smsStatusOf` of the shared campaign-results in SQL (the filter
// in modules/segments/results-filters.ts reads the column): waiting → queued, claimed → sending, no
// outcome and skipped → none, a gateway refusal and a carrier's `undelivered` → failed.
const SMS_STATUS = `(case state
  when 'pending' then 'queued'
  when 'claimed' then 'sending'
  when 'unknown' then null
  when 'failed' then case when left(coalesce(error_code, ''), 8) = 'skipped_' then null else 'failed' end
  else case when status is null then 'sent' when status = 'undelivered' then 'failed' else status end
end)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add column if not exists sms_status text generated always as ${sql.raw(SMS_STATUS)} stored`.execute(
    db,
  );
  await sql`create index if not exists messages_campaign_sms_status_col_idx
    on messages (team_id, campaign_id, sms_status, lead_id) where kind = 'campaign_step'`.execute(db);
  await sql`drop index if exists messages_campaign_sms_status_idx`.execute(db);
  await sql`analyze messages`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists messages_campaign_sms_status_idx
    on messages (team_id, campaign_id, ${sql.raw(SMS_STATUS)}, lead_id) where kind = 'campaign_step'`.execute(db);
  await sql`drop index if exists messages_campaign_sms_status_col_idx`.execute(db);
  await sql`alter table messages drop column if exists sms_status`.execute(db);
}
