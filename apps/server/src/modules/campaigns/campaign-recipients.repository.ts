import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { CAMPAIGN_SKIP_REASONS, type TCampaignSkipReason } from '@herald/shared/campaigns/campaigns.schemas';
import type { DB } from '../../db/schema.ts';

/** Who a campaign reaches: its sources and lists, and its segments as predicates over `leads`. */
export interface AudienceSql {
  teamId: number;
  sources: number[];
  lists: number[];
  segments: RawBuilder<SqlBool>[];
  /** The team's ignored phone formats, as regular expressions PostgreSQL reads (`~`), over the digits without `+`. */
  ignored: string[];
  /** Leave out phones whose lookup result says invalid or not a mobile (the campaign's option, decision 041). */
  skipInvalid?: boolean;
}

export type RecipientBuckets = {
  audience: number;
  recipients: number;
  skipped: Record<TCampaignSkipReason, number>;
  /** The preview's recipients by the first digits of their phone, with one phone of each (for its price). */
  byPrefix: { sample: string; n: number }[];
};

type Counted = { skip_reason: string | null; prefix: string | null; sample: string | null; n: string | number };

export function emptyBuckets(): RecipientBuckets {
  const skipped = Object.fromEntries(CAMPAIGN_SKIP_REASONS.map((r) => [r, 0])) as Record<TCampaignSkipReason, number>;
  return { audience: 0, recipients: 0, skipped, byPrefix: [] };
}

/**
 * Every lead of the audience in exactly one bucket, by one set-based statement (no lead reaches
 * Node). A lead's phones are tried in the order they were stored; a phone is dropped when it is
 * banned (on any lead of the team, or held by a blacklisted lead), in the team's ignored formats,
 * or opted out, and the lead's reason is the step that dropped its last phone. Of the leads left
 * with the same phone only the oldest is sent to: one person with two leads gets one message.
 * `write` inserts the buckets as the campaign's recipients (the engine's start; a rerun adds
 * nothing); otherwise only their counts are read (the preview). Both read the same rows.
 *
 * Shaped for 1,000,000 leads (decision 036): the audience is joined to its phones once; each phone
 * gets a rank (0 sendable, 1 a lookup found it invalid or not a mobile and the campaign skips those,
 * 2 opted out, 3 ignored format, 4 banned) and a lead keeps its best phone
 * (lowest rank, then first stored), whose rank is the lead's reason — the same answer as asking
 * "any phone not banned? not ignored? not opted out?" in turn, with one sort instead of an
 * aggregate of arrays. The blocked phones and the opt-outs are read once each as hashed sets (per
 * phone, the planner's estimate set off JIT compiling); the blocked ones through the partial
 * indexes of migration 0033, not by reading every phone and lead of the team. Phones are compared
 * byte-wise (`collate "C"`) where only equality matters: the same groups, a much cheaper sort.
 */
export async function recipientBuckets(
  db: Kysely<DB>,
  campaignId: number,
  a: AudienceSql,
  options: { write: boolean },
): Promise<RecipientBuckets> {
  const buckets = bucketsSql(campaignId, a);
  if (!buckets) return emptyBuckets();
  const rows = options.write
    ? await sql<Counted>`${buckets},
        written as (${insertRecipients(campaignId, a.teamId)})
        select skip_reason, null as prefix, null as sample, count(*) as n from written group by skip_reason`.execute(db)
    : await sql<Counted>`${buckets}
        select skip_reason, case when skip_reason is null then left(phone, 5) end as prefix,
          min(phone) as sample, count(*) as n from bucketed
        group by skip_reason, case when skip_reason is null then left(phone, 5) end`.execute(db);
  return tally(rows.rows);
}

/** Leads of the audience with ids in (`after`, `through`], the first `limit` of them by id. */
export interface RecipientsChunk {
  after: number;
  through: number;
  limit: number;
}

/**
 * Fixes the next `limit` leads of the audience by id (the engine's start, a chunk per transaction,
 * decision 036): the same buckets as `recipientBuckets`, where a phone already fixed to send by an
 * earlier chunk makes the lead a `duplicate_phone` — earlier chunks hold the older leads, so the
 * oldest lead with a phone is still the one sent to. `last` is the chunk's highest lead id, null
 * when no audience lead is left in the range; a rerun of a chunk adds nothing.
 */
export async function fixRecipientsChunk(
  db: Kysely<DB>,
  campaignId: number,
  a: AudienceSql,
  chunk: RecipientsChunk,
): Promise<{ buckets: RecipientBuckets; last: number | null }> {
  const members = membersOf(a);
  if (!members) return { buckets: emptyBuckets(), last: null };
  // The chunk's last lead first, so every part of the statement reads a range of lead ids.
  const edge = await sql<{ last: string | null }>`select max(id) as last from (
      select leads.id from leads where leads.team_id = ${a.teamId} and ${members}
        and leads.id > ${chunk.after} and leads.id <= ${chunk.through}
      order by leads.id limit ${chunk.limit}::int) c`.execute(db);
  const last = edge.rows[0]?.last;
  if (last === null || last === undefined) return { buckets: emptyBuckets(), last: null };
  const buckets = bucketsSql(campaignId, a, { after: chunk.after, upto: Number(last) });
  if (!buckets) return { buckets: emptyBuckets(), last: null };
  const rows = await sql<Counted>`${buckets},
      written as (${insertRecipients(campaignId, a.teamId)})
      select skip_reason, null as prefix, null as sample, count(*) as n from written group by skip_reason`.execute(db);
  return { buckets: tally(rows.rows), last: Number(last) };
}

function insertRecipients(campaignId: number, teamId: number) {
  return sql`insert into campaign_recipients (campaign_id, team_id, lead_id, phone, skip_reason)
    select ${campaignId}, ${teamId}, lead_id, phone, skip_reason from bucketed
    on conflict do nothing
    returning skip_reason`;
}

function tally(rows: Counted[]): RecipientBuckets {
  const { skipped } = emptyBuckets();
  let recipients = 0;
  let audience = 0;
  const byPrefix: RecipientBuckets['byPrefix'] = [];
  for (const r of rows) {
    const n = Number(r.n);
    audience += n;
    if (r.skip_reason !== null) skipped[r.skip_reason as TCampaignSkipReason] += n;
    else {
      recipients += n;
      if (r.sample) byPrefix.push({ sample: r.sample, n });
    }
  }
  return { audience, recipients, skipped, byPrefix };
}

/** The audience as a predicate over `leads`; null when the campaign reaches no one. */
function membersOf(a: AudienceSql) {
  const members: RawBuilder<SqlBool>[] = [...a.segments];
  if (a.sources.length > 0) members.push(sql<SqlBool>`leads.source_id = any(${a.sources}::bigint[])`);
  if (a.lists.length > 0) members.push(sql<SqlBool>`leads.list_id = any(${a.lists}::bigint[])`);
  return members.length === 0 ? null : sql<SqlBool>`(${sql.join(members, sql` or `)})`;
}

/**
 * The statement's buckets as CTEs ending in `bucketed`; null when the campaign reaches no one.
 * Whole (the preview, a one-statement start): the blocked phones and the opt-outs as hashed sets.
 * A chunk of lead ids: each phone asked by index (`limit 1` keeps the planner from hashing the
 * whole team's sets for a few thousand phones), so a chunk costs its own leads, not the team's.
 */
function bucketsSql(campaignId: number, a: AudienceSql, chunk?: { after: number; upto: number }) {
  const t = a.teamId;
  const members = membersOf(a);
  if (!members) return null;
  const leadRange = (column: RawBuilder<unknown>) =>
    chunk ? sql`and ${column} > ${chunk.after} and ${column} <= ${chunk.upto}` : sql``;
  const ignored =
    a.ignored.length > 0 ? sql<SqlBool>`ltrim(v.value, '+') ~ any(${a.ignored}::text[])` : sql<SqlBool>`false`;
  const blocked = chunk
    ? sql<SqlBool>`(select true from lead_values b join leads bl on bl.id = b.lead_id
        where b.team_id = ${t} and b.type = 'phone' and b.value = v.value
          and (b.ban is true or bl.status = 'blacklisted') limit 1) is not null`
    : sql<SqlBool>`v.value in (select value from blocked)`;
  const optedOut = chunk
    ? sql<SqlBool>`(select true from message_opt_outs o where o.team_id = ${t} and o.phone = v.value limit 1) is not null`
    : sql<SqlBool>`v.value in (select o.phone from message_opt_outs o where o.team_id = ${t})`;
  // Its result (the team's cache, by its key) says invalid or another line than a mobile.
  const notValidMobile = a.skipInvalid
    ? sql<SqlBool>`(select true from phone_lookups pl where pl.team_id = ${t} and pl.phone = v.value
        and (pl.status_label = 'invalid' or pl.carrier_type <> 'mobile')) is not null`
    : sql<SqlBool>`false`;
  // A phone an earlier chunk fixed to send is taken: that chunk held the older lead.
  const taken = chunk
    ? sql`or (select true from campaign_recipients r where r.campaign_id = ${campaignId} and r.phone = reasoned.phone
          and r.skip_reason is null limit 1) is not null`
    : sql``;

  return sql`
    with audience as (
      select leads.id as lead_id, leads.status from leads
      where leads.team_id = ${t} and ${members} ${leadRange(sql`leads.id`)}
    ),
    blocked as (
      select b.value from lead_values b
      where b.team_id = ${t} and b.type = 'phone' and b.ban is true
      union
      select b.value from leads bl join lead_values b on b.lead_id = bl.id and b.team_id = ${t} and b.type = 'phone'
      where bl.team_id = ${t} and bl.status = 'blacklisted'
    ),
    phones as (
      select a.lead_id, a.status, v.id as value_id, v.value as phone,
        case when v.id is null then null
             when v.ban is true or ${blocked} then 4
             when ${ignored} then 3
             when ${optedOut} then 2
             when ${notValidMobile} then 1
             else 0 end as rank
      from audience a left join lead_values v on v.lead_id = a.lead_id and v.team_id = ${t} and v.type = 'phone'
        ${leadRange(sql`v.lead_id`)}
    ),
    best as (
      select distinct on (lead_id) lead_id, status, rank, phone from phones order by lead_id, rank, value_id
    ),
    reasoned as (
      select lead_id, case when rank = 0 and status <> 'blacklisted' then phone end as phone,
        case when status = 'blacklisted' then 'blacklisted'
             when rank is null then 'no_valid_phone'
             when rank = 4 then 'banned'
             when rank = 3 then 'ignored_format'
             when rank = 2 then 'opted_out'
             when rank = 1 then 'not_valid_mobile' end as reason
      from best
    ),
    bucketed as (
      select lead_id, phone,
        case when reason is null
               and (row_number() over (partition by phone collate "C" order by lead_id) > 1 ${taken})
             then 'duplicate_phone' else reason end as skip_reason
      from reasoned
    )`;
}
