import { type Kysely, sql } from 'kysely';

// Campaign statistics kept as a summary (decision 037). Counting a 1,000,000-message campaign's rows
// takes seconds; `statistic` must answer in 100 ms. The summary is changed by statement-level
// triggers on the rows themselves, so every statement that moves a message row, a link's clicks or a
// recipient (the send path, report ingest, the engine's skips, the click batch, a hand-run update)
// changes it in its own transaction, once per statement and set-based: a delta from each row's old
// key to its new one. No separate write can be lost, and a rolled-back statement rolls its delta
// back with it. `herald_campaign_statistics_rebuild` recounts one campaign from its rows: the
// backfill below, and the reference the tests compare the summary against.
//
// Stored keys use '' and 0 for "none" so a plain unique index serves ON CONFLICT. A pending and a
// claimed row share one key (bucket queued, status queued): a claim moves nothing, so the dispatch's
// claims never touch the summary (the reader counts the few claimed rows as sending). "Unconfirmed"
// (72 h without a final report) is time, not an event: those rows stay in the sent bucket and the
// reader moves them through the partial index on submitted_at below.

/** A message row `m` (and its links' figures `l`, null when not read) as its summary key and values. */
const KEY = `m.campaign_id, m.campaign_step_id as step_id, coalesce(m.gateway_id, 0) as gateway_id,
  coalesce(m.sender, '') as sender,
  case when m.state in ('pending', 'claimed') then 'queued'
    when m.state = 'unknown' then 'unknown'
    when m.state = 'failed' and left(m.error_code, 8) = 'skipped_' then 'skipped'
    when m.state = 'failed' then 'failed'
    when m.status = 'delivered' then 'delivered'
    when m.status in ('undelivered', 'failed', 'blocked_by_carrier', 'inactive_device') then 'failed'
    else 'sent' end as bucket,
  case when m.state = 'failed' and left(m.error_code, 8) = 'skipped_' then substr(m.error_code, 9)
    when m.state = 'failed' then coalesce(m.error_code, 'failed')
    when m.state = 'submitted' and m.status in ('undelivered', 'failed', 'blocked_by_carrier', 'inactive_device')
      then m.status
    else '' end as reason,
  case when m.state in ('pending', 'claimed') then 'queued'
    when m.state = 'unknown' then ''
    when m.state = 'failed' and left(m.error_code, 8) = 'skipped_' then ''
    when m.state = 'failed' then 'failed'
    when m.status is null then 'sent'
    when m.status = 'undelivered' then 'failed'
    else m.status end as sms_status,
  1 as cnt, (m.state = 'submitted')::int as sent, (m.state = 'submitted')::int as es,
  case when m.state = 'submitted' then m.parts else 0 end as parts,
  case when m.state in ('submitted', 'unknown') and m.refunded_at is null then m.price else 0 end as cost,
  case when m.state = 'submitted' and m.price = 0 then m.parts else 0 end as free_sms,
  case when m.state = 'submitted' and m.status = 'delivered' then date_trunc('hour', m.status_at, 'UTC') end
    as delivered_hour,
  m.state in ('pending', 'claimed') as waiting`;

/** The figures of one message's links, `s` grouped by message. */
const LINK_FIGURES = `bool_or(s.kind = 'link' and s.first_clicked_at is not null)::int as clicked,
  coalesce(sum(s.human_clicks) filter (where s.kind = 'link'), 0) as human_clicks,
  coalesce(sum(s.other_hits), 0) as other_hits,
  bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null)::int as unsubscribed,
  (bool_or(s.kind = 'link' and s.first_clicked_at is not null)
    or bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null))::int as engaged,
  date_trunc('hour', min(s.first_clicked_at) filter (where s.kind = 'link'), 'UTC') as clicked_hour`;

const COUNTERS = [
  'n',
  'sent',
  'engaged_sent',
  'parts',
  'cost',
  'free_sms',
  'clicked',
  'human_clicks',
  'other_hits',
  'engaged',
  'unsubscribed',
];
const KEY_COLUMNS = 'campaign_id, step_id, gateway_id, sender, bucket, reason, sms_status';
const UPSERT = `on conflict (${KEY_COLUMNS}) do update set
  ${COUNTERS.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')}`;

/**
 * Signed contributions `d` (sign, key, values) joined to their links `l` → the summary's upsert.
 * Sorted by key so concurrent statements take the summary's row locks in one order (no deadlock).
 */
const APPLY = `insert into campaign_statistics as t (${KEY_COLUMNS}, ${COUNTERS.join(', ')})
  select d.campaign_id, d.step_id, d.gateway_id, d.sender, d.bucket, d.reason, d.sms_status, sum(d.sign * d.cnt),
    sum(d.sign * d.sent), sum(d.sign * d.es * coalesce(l.engaged, 0)), sum(d.sign * d.parts),
    sum(d.sign * d.cost), sum(d.sign * d.free_sms), sum(d.sign * coalesce(l.clicked, 0)),
    sum(d.sign * coalesce(l.human_clicks, 0)), sum(d.sign * coalesce(l.other_hits, 0)),
    sum(d.sign * coalesce(l.engaged, 0)), sum(d.sign * coalesce(l.unsubscribed, 0))
  from d left join l on l.id = d.id
  group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
  ${UPSERT}`;

const APPLY_HOURS = `insert into campaign_statistics_hourly as t (campaign_id, hour, delivered, clicked)
  select campaign_id, hour, sum(delivered), sum(clicked) from h where hour is not null
  group by 1, 2 order by 1, 2
  on conflict (campaign_id, hour) do update set delivered = t.delivered + excluded.delivered,
    clicked = t.clicked + excluded.clicked`;

/** One statement per message statement: rows whose key or values moved, old side out, new side in. */
function messagesTrigger(op: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const o = `select o.id, ${KEY.replaceAll('m.', 'o.')} from old_rows o where o.campaign_step_id is not null`;
  const n = `select n.id, ${KEY.replaceAll('m.', 'n.')} from new_rows n where n.campaign_step_id is not null`;
  const pair =
    op === 'UPDATE'
      ? `o as (${o}), n as (${n}),
        ch as (select o.id, not (o.waiting and n.waiting) as with_links from o join n on n.id = o.id
          where (o.campaign_id, o.step_id, o.gateway_id, o.sender, o.bucket, o.reason, o.sms_status, o.sent, o.parts,
            o.cost, o.free_sms, o.delivered_hour) is distinct from (n.campaign_id, n.step_id, n.gateway_id, n.sender,
            n.bucket, n.reason, n.sms_status, n.sent, n.parts, n.cost, n.free_sms, n.delivered_hour)),
        d as (select -1 as sign, o.* from o join ch on ch.id = o.id
          union all select 1, n.* from n join ch on ch.id = n.id)`
      : op === 'INSERT'
        ? `d as (select 1 as sign, x.* from (${n}) x), ch as (select id, not waiting as with_links from d)`
        : `d as (select -1 as sign, x.* from (${o}) x), ch as (select id, not waiting as with_links from d)`;
  return `with ${pair},
    l as (select s.message_id as id, ${LINK_FIGURES} from ch join short_links s on s.message_id = ch.id
      where ch.with_links group by s.message_id),
    h as (select d.campaign_id, d.delivered_hour as hour, sum(d.sign) as delivered, 0 as clicked from d
      group by 1, 2),
    hours as (${APPLY_HOURS})
    ${APPLY}`;
}

/** A link statement: each touched campaign message's link figures after minus before, at its current key. */
const LINKS_TRIGGER = `with ch as (select n.id, n.message_id from new_rows n join old_rows o on o.id = n.id
    where n.message_id is not null and (o.first_clicked_at is distinct from n.first_clicked_at
      or o.human_clicks <> n.human_clicks or o.other_hits <> n.other_hits
      or o.unsubscribed_at is distinct from n.unsubscribed_at)),
  k as (select m.id, ${KEY} from messages m where m.id in (select message_id from ch) and m.campaign_step_id is not null),
  after as (select s.message_id as id, ${LINK_FIGURES} from short_links s where s.message_id in (select id from k)
    group by s.message_id),
  before as (select s.message_id as id, ${LINK_FIGURES} from (
      select x.* from short_links x where x.message_id in (select id from k) and x.id not in (select id from new_rows)
      union all select o.* from old_rows o where o.message_id in (select id from k)) s
    group by s.message_id),
  d as (select 1 as sign, k.id, k.campaign_id, k.step_id, k.gateway_id, k.sender, k.bucket, k.reason, k.sms_status,
      0 as cnt, 0 as sent, k.es, 0 as parts, 0 as cost, 0 as free_sms from k),
  l as (select a.id, a.clicked - b.clicked as clicked, a.human_clicks - b.human_clicks as human_clicks,
      a.other_hits - b.other_hits as other_hits, a.unsubscribed - b.unsubscribed as unsubscribed,
      a.engaged - b.engaged as engaged from after a join before b on b.id = a.id),
  h as (select k.campaign_id, b.clicked_hour as hour, 0 as delivered, -1 as clicked from k join after a on a.id = k.id
      join before b on b.id = k.id where a.clicked_hour is distinct from b.clicked_hour
    union all select k.campaign_id, a.clicked_hour, 0, 1 from k join after a on a.id = k.id
      join before b on b.id = k.id where a.clicked_hour is distinct from b.clicked_hour),
  hours as (${APPLY_HOURS}),
  links as (insert into campaign_statistics_links as t (campaign_id, redirect_to, clickers, human_clicks, other_hits)
    select k.campaign_id, n.redirect_to, sum((n.first_clicked_at is not null)::int - (o.first_clicked_at is not null)::int),
      sum(n.human_clicks - o.human_clicks), sum(n.other_hits - o.other_hits)
    from new_rows n join old_rows o on o.id = n.id join k on k.id = n.message_id
    where n.kind = 'link' and n.redirect_to is not null group by 1, 2 order by 1, 2
    on conflict (campaign_id, redirect_to) do update set clickers = t.clickers + excluded.clickers,
      human_clicks = t.human_clicks + excluded.human_clicks, other_hits = t.other_hits + excluded.other_hits)
  ${APPLY}`;

/** Recipients by skip reason ('' for to send): the rows fixed at the start, and the cap's later skips. */
function recipientsTrigger(op: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const side = (rows: string, sign: number) =>
    `select campaign_id, coalesce(skip_reason, '') as reason, ${sign} as sign from ${rows}`;
  const d =
    op === 'INSERT'
      ? side('new_rows', 1)
      : op === 'DELETE'
        ? side('old_rows', -1)
        : `${side('old_rows', -1)} union all ${side('new_rows', 1)}`;
  return `insert into campaign_statistics_recipients as t (campaign_id, reason, n)
    select campaign_id, reason, sum(sign) from (${d}) x group by 1, 2 having sum(sign) <> 0 order by 1, 2
    on conflict (campaign_id, reason) do update set n = t.n + excluded.n`;
}

function trigger(name: string, table: string, op: 'INSERT' | 'UPDATE' | 'DELETE', body: string) {
  const refs =
    op === 'INSERT'
      ? 'new table as new_rows'
      : op === 'DELETE'
        ? 'old table as old_rows'
        : 'old table as old_rows new table as new_rows';
  return [
    `create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`,
    `create trigger ${name} after ${op.toLowerCase()} on ${table} referencing ${refs} for each statement execute function ${name}()`,
  ];
}

const TRIGGERS: Array<[string, string, 'INSERT' | 'UPDATE' | 'DELETE', string]> = [
  ['herald_campaign_stats_msg_ins', 'messages', 'INSERT', messagesTrigger('INSERT')],
  ['herald_campaign_stats_msg_upd', 'messages', 'UPDATE', messagesTrigger('UPDATE')],
  ['herald_campaign_stats_msg_del', 'messages', 'DELETE', messagesTrigger('DELETE')],
  ['herald_campaign_stats_link_upd', 'short_links', 'UPDATE', LINKS_TRIGGER],
  ['herald_campaign_stats_rcpt_ins', 'campaign_recipients', 'INSERT', recipientsTrigger('INSERT')],
  ['herald_campaign_stats_rcpt_upd', 'campaign_recipients', 'UPDATE', recipientsTrigger('UPDATE')],
  ['herald_campaign_stats_rcpt_del', 'campaign_recipients', 'DELETE', recipientsTrigger('DELETE')],
];

/** One campaign's summary recounted from its rows (the reference; also the backfill). */
const REBUILD = `create function herald_campaign_statistics_rebuild(cid bigint) returns void language plpgsql as $$ begin
  delete from campaign_statistics where campaign_id = cid;
  delete from campaign_statistics_hourly where campaign_id = cid;
  delete from campaign_statistics_links where campaign_id = cid;
  delete from campaign_statistics_recipients where campaign_id = cid;
  with d as (select 1 as sign, m.id, ${KEY} from messages m where m.campaign_id = cid and m.campaign_step_id is not null),
    l as (select s.message_id as id, ${LINK_FIGURES} from d join short_links s on s.message_id = d.id group by s.message_id),
    h as (select d.campaign_id, d.delivered_hour as hour, count(*) as delivered, 0 as clicked from d group by 1, 2
      union all select d.campaign_id, l.clicked_hour, 0, count(*) from d join l on l.id = d.id group by 1, 2),
    hours as (${APPLY_HOURS}),
    links as (insert into campaign_statistics_links (campaign_id, redirect_to, clickers, human_clicks, other_hits)
      select cid, s.redirect_to, count(*) filter (where s.first_clicked_at is not null), sum(s.human_clicks),
        sum(s.other_hits) from d join short_links s on s.message_id = d.id
      where s.kind = 'link' and s.redirect_to is not null group by 2)
  ${APPLY};
  insert into campaign_statistics_recipients (campaign_id, reason, n)
    select cid, coalesce(skip_reason, ''), count(*) from campaign_recipients where campaign_id = cid group by 2;
end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table campaign_statistics (
    campaign_id bigint not null, step_id bigint not null, gateway_id bigint not null, sender text not null,
    bucket text not null, reason text not null, sms_status text not null,
    n bigint not null default 0, sent bigint not null default 0, engaged_sent bigint not null default 0,
    parts bigint not null default 0, cost bigint not null default 0, free_sms bigint not null default 0,
    clicked bigint not null default 0, human_clicks bigint not null default 0, other_hits bigint not null default 0,
    engaged bigint not null default 0, unsubscribed bigint not null default 0,
    primary key (campaign_id, step_id, gateway_id, sender, bucket, reason, sms_status))`.execute(db);
  await sql`create table campaign_statistics_hourly (campaign_id bigint not null, hour timestamptz not null,
    delivered bigint not null default 0, clicked bigint not null default 0, primary key (campaign_id, hour))`.execute(
    db,
  );
  await sql`create table campaign_statistics_links (campaign_id bigint not null, redirect_to text not null,
    clickers bigint not null default 0, human_clicks bigint not null default 0, other_hits bigint not null default 0,
    primary key (campaign_id, redirect_to))`.execute(db);
  await sql`create table campaign_statistics_recipients (campaign_id bigint not null, reason text not null,
    n bigint not null default 0, primary key (campaign_id, reason))`.execute(db);
  // Sent rows still waiting for a final report, by hand-over time: the reader's unconfirmed range.
  await sql`create index messages_awaiting_report_idx on messages (campaign_id, submitted_at)
    where campaign_step_id is not null and state = 'submitted'
      and (status is null or status in ('queued', 'sending', 'sent'))`.execute(db);
  await sql.raw(REBUILD).execute(db);
  for (const [name, table, op, body] of TRIGGERS)
    for (const s of trigger(name, table, op, body)) await sql.raw(s).execute(db);
  await sql`select herald_campaign_statistics_rebuild(id) from campaigns order by id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, table] of TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await sql`drop function if exists herald_campaign_statistics_rebuild(bigint)`.execute(db);
  await sql`drop index if exists messages_awaiting_report_idx`.execute(db);
  for (const t of ['campaign_statistics_recipients', 'campaign_statistics_links', 'campaign_statistics_hourly'])
    await sql.raw(`drop table if exists ${t}`).execute(db);
  await sql`drop table if exists campaign_statistics`.execute(db);
}
