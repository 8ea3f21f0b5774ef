import { type RawBuilder, sql } from 'kysely';
import { SKIPPED_CODE_PREFIX, UNCONFIRMED_AFTER_HOURS } from '@herald/shared/campaigns/campaign-results';

/**
 * `@herald/shared/campaigns/campaign-results` in SQL, over a `messages` row aliased `m`: the same
 * bucket, reason and SMS status as `bucketOf` and `smsStatusOf` (the API tests recount with those).
 */
const skipped = sql`left(m.error_code, ${SKIPPED_CODE_PREFIX.length}) = ${SKIPPED_CODE_PREFIX}`;
const finalFailure = sql`m.status in ('undelivered', 'failed', 'blocked_by_carrier', 'inactive_device')`;

export const BUCKET_SQL: RawBuilder<string> = sql<string>`case
  when m.state in ('pending', 'claimed') then 'queued'
  when m.state = 'unknown' then 'unknown'
  when m.state = 'failed' and ${skipped} then 'skipped'
  when m.state = 'failed' then 'failed'
  when m.status = 'delivered' then 'delivered'
  when ${finalFailure} then 'failed'
  when m.submitted_at <= now() - make_interval(hours => ${UNCONFIRMED_AFTER_HOURS}) then 'unconfirmed'
  else 'sent' end`;

export const REASON_SQL: RawBuilder<string | null> = sql<string | null>`case
  when m.state = 'failed' and ${skipped} then substr(m.error_code, ${SKIPPED_CODE_PREFIX.length + 1})
  when m.state = 'failed' then coalesce(m.error_code, 'failed')
  when m.state = 'submitted' and ${finalFailure} then m.status
  else null end`;

export const SMS_STATUS_SQL: RawBuilder<string | null> = sql<string | null>`case
  when m.state = 'pending' then 'queued'
  when m.state = 'claimed' then 'sending'
  when m.state = 'unknown' then null
  when m.state = 'failed' and ${skipped} then null
  when m.state = 'failed' then 'failed'
  when m.status is null then 'sent'
  when m.status = 'undelivered' then 'failed'
  else m.status end`;

/** Per message row `m`: whether a human clicked one of its links, its clicks, and an unsubscribe. */
export const LINKS_OF_MESSAGE = sql`left join lateral (
    select bool_or(s.kind = 'link' and s.first_clicked_at is not null) as clicked,
      coalesce(sum(s.human_clicks) filter (where s.kind = 'link'), 0) as human_clicks,
      coalesce(sum(s.other_hits), 0) as other_hits,
      bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null) as unsubscribed,
      min(s.first_clicked_at) filter (where s.kind = 'link') as clicked_at
    from short_links s where s.message_id = m.id) l on true`;
