import { type Kysely, type RawBuilder, sql } from 'kysely';
import { zonesByCallingCode } from '@herald/shared/sms/quiet-hours';
import { countSms } from '@herald/shared/sms/sms-parts';
import type { DB } from '../../db/schema.ts';

type Db = Kysely<DB>;

/** What a step's rows are queued with. */
export interface StepRow {
  id: number;
  position: number;
  message: string;
  delay_minutes: number;
  limit_cap: number | null;
  redirect_to: string | null;
  short_url_domain_id: number | null;
}

export interface CampaignRow {
  id: number;
  team_id: number;
  launched_by: number | null;
  gateway_id: number | null;
  sender: string | null;
  frequency_per_minute: number;
  timezone: string;
  quiet_hours: boolean;
  quiet_from: string;
  quiet_to: string;
}

const ZONES = zonesByCallingCode();

/**
 * `at`, or when it falls inside the campaign's quiet hours in the recipient's zone (from the phone's
 * calling code, else the campaign's zone), the end of those hours that morning: set-based, per row.
 */
export function quietAware(c: CampaignRow, at: RawBuilder<unknown>, phone: RawBuilder<unknown>) {
  if (!c.quiet_hours || c.quiet_from === c.quiet_to) return at;
  const from = sql`${c.quiet_from}::time`;
  const to = sql`${c.quiet_to}::time`;
  return sql`(select case
      when ${from} < ${to} and w.lt >= ${from} and w.lt < ${to} then (w.ld + ${to}) at time zone x.z
      when ${from} > ${to} and w.lt >= ${from} then (w.ld + 1 + ${to}) at time zone x.z
      when ${from} > ${to} and w.lt < ${to} then (w.ld + ${to}) at time zone x.z
      else x.t end
    from (select ${at} as t, coalesce((select p.zone from unnest(${ZONES.map((z) => z.prefix)}::text[], ${ZONES.map((z) => z.zone)}::text[]) as p(prefix, zone)
            where ${phone} like p.prefix || '%' order by length(p.prefix) desc limit 1), ${c.timezone}) as z) x,
      lateral (select (x.t at time zone x.z)::time as lt, (x.t at time zone x.z)::date as ld) w)`;
}

/**
 * The slot the next queued row of a campaign may go at: rows are spaced `60 / frequency` seconds
 * apart from the latest slot the campaign already holds, so every worker process keeps the
 * campaign's one rate without asking each other (the gateway's own bucket still applies on top).
 */
export function slotBase(c: CampaignRow) {
  // The statement's own moment, not the transaction's: a start that spent seconds fixing recipients
  // would otherwise hand out slots already past, and the dispatch would send them in a burst.
  return sql`greatest((select clock_timestamp()), coalesce((select max(q.not_before) from messages q
    where q.campaign_id = ${c.id} and q.state = 'pending' and q.not_before < 'infinity'), (select clock_timestamp())))`;
}
export const spacing = (c: CampaignRow) => sql`(${60_000 / c.frequency_per_minute}::float8 * interval '1 millisecond')`;

/**
 * Queues step 1 for every recipient fixed to send (one statement; no row passes through Node),
 * pending and not charged: the messages dispatch claims and charges them by `campaign:<step>:<phone>`.
 * `leads`: only the recipients of a chunk the start just fixed (decision 036), after the slots the
 * earlier chunks hold, within what the step's cap leaves.
 */
export async function queueFirstStep(
  tx: Db,
  c: CampaignRow,
  step: StepRow,
  leads?: { after: number; upto: number },
): Promise<number> {
  const count = countSms(step.message);
  const room = step.limit_cap === null ? null : Math.max(0, step.limit_cap - (leads ? await stepRows(tx, step.id) : 0));
  if (room === 0) return 0;
  const cap = room === null ? sql`` : sql`limit ${room}::int`;
  const range = leads ? sql`and lead_id > ${leads.after} and lead_id <= ${leads.upto}` : sql``;
  // A later chunk's first row goes a slot after the last one queued, not beside it.
  const after = leads
    ? sql`coalesce((select 1 from messages q where q.campaign_id = ${c.id} and q.state = 'pending'
        and q.not_before < 'infinity' limit 1), 0)`
    : sql`0`;
  const result = await sql`
    insert into messages (team_id, user_id, lead_id, kind, campaign_id, campaign_step_id, phone, gateway_id,
      sender, text, parts, encoding, charge_key, state, not_before)
    select ${c.team_id}, ${c.launched_by}, r.lead_id, 'campaign_step', ${c.id}, ${step.id}, r.phone, ${c.gateway_id},
      ${c.sender}, ${step.message}, ${count.parts}, ${count.encoding}, 'campaign:' || ${step.id} || ':' || r.phone,
      'pending', ${quietAware(c, sql`${slotBase(c)} + (r.n - 1 + ${after}) * ${spacing(c)}`, sql`r.phone`)}
    from (select lead_id, phone, row_number() over (order by lead_id) as n from campaign_recipients
          where campaign_id = ${c.id} and skip_reason is null ${range} order by lead_id ${cap}) r
    on conflict do nothing`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * What a step after the first is queued from: `reached` selects the phones that reach it
 * (`lead_id`, `phone`, `ord` — the order their slots go in — and whatever `dueFrom` reads); `dueFrom`,
 * over a reached row `p`, is the moment the step's delay counts from; `excluded`, over `p.phone`, fails
 * the row `skipped_not_valid_mobile` at once (counted, never claimed nor charged).
 */
export interface FollowingRows {
  reached: RawBuilder<unknown>;
  dueFrom: RawBuilder<unknown>;
  excluded: RawBuilder<unknown>;
}

/**
 * Queues `step` for each phone `rows` reaches, due its delay after `rows.dueFrom` and not before the
 * campaign's next slot, within what the step's cap leaves. A rerun adds nothing (a phone the step
 * already holds is passed over). SMS steps after an SMS step and after a lookup step both go here.
 */
export async function queueFollowingStep(tx: Db, c: CampaignRow, step: StepRow, rows: FollowingRows): Promise<number> {
  const count = countSms(step.message);
  const room = step.limit_cap === null ? null : Math.max(0, step.limit_cap - (await stepRows(tx, step.id)));
  if (room === 0) return 0;
  const cap = room === null ? sql`` : sql`limit ${room}::int`;
  const { excluded } = rows;
  const result = await sql`
    insert into messages (team_id, user_id, lead_id, kind, campaign_id, campaign_step_id, phone, gateway_id,
      sender, text, parts, encoding, charge_key, state, error_code, error_message, not_before)
    select ${c.team_id}, ${c.launched_by}, p.lead_id, 'campaign_step', ${c.id}, ${step.id}, p.phone, ${c.gateway_id},
      ${c.sender}, ${step.message}, ${count.parts}, ${count.encoding}, 'campaign:' || ${step.id} || ':' || p.phone,
      case when ${excluded} then 'failed' else 'pending' end,
      case when ${excluded} then 'skipped_not_valid_mobile' end,
      case when ${excluded} then 'recipient left the campaign' end, ${quietAware(
        c,
        sql`greatest(${rows.dueFrom} + ${step.delay_minutes}::int * interval '1 minute', ${slotBase(c)} + (p.n - 1) * ${spacing(c)})`,
        sql`p.phone`,
      )}
    from (select s.*, row_number() over (order by s.ord) as n from (${rows.reached}) s
          where not exists (select 1 from messages x where x.campaign_step_id = ${step.id} and x.phone = s.phone)
          order by s.ord ${cap}) p
    on conflict do nothing`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Queues step `step` for each recipient whose previous step went out (submitted), due its delay
 * after that recipient's own send. A phone a lookup has found invalid or not a mobile since (the
 * campaign skipping those) gets its row already failed `skipped_not_valid_mobile`.
 */
export function queueNextStep(tx: Db, c: CampaignRow, prev: StepRow, step: StepRow): Promise<number> {
  return queueFollowingStep(tx, c, step, {
    reached: sql`select m.lead_id, m.phone, m.id as ord, coalesce(m.submitted_at, m.called_at) as went
      from messages m where m.campaign_step_id = ${prev.id} and m.state = 'submitted'`,
    dueFrom: sql`p.went`,
    excluded: sql`((select x.skip_invalid_phones from campaigns x where x.id = ${c.id})
      and ${foundNotValidMobile(c.team_id, sql`p.phone`)})`,
  });
}

/** Whether the team's lookup result for `phone` says invalid or another line than a mobile. */
export function foundNotValidMobile(teamId: number, phone: RawBuilder<unknown>) {
  return sql`exists (select 1 from phone_lookups pl where pl.team_id = ${teamId} and pl.phone = ${phone}
    and (pl.status_label = 'invalid' or pl.carrier_type <> 'mobile'))`;
}

/** The rows a step already holds (its limit cap counts them). */
export async function stepRows(tx: Db, stepId: number): Promise<number> {
  const r = await sql<{ n: string }>`select count(*) as n from messages where campaign_step_id = ${stepId}`.execute(tx);
  return Number(r.rows[0]?.n ?? 0);
}

/** Pause: the campaign's queued rows wait with no due time; rows already claimed finish their call. */
export async function holdRows(tx: Db, campaignId: number): Promise<void> {
  await sql`update messages set not_before = 'infinity', updated_at = now()
    where campaign_id = ${campaignId} and state = 'pending' and not_before < 'infinity'`.execute(tx);
}

/**
 * Resume: the held rows are due again, spaced at the campaign's rate from now, in their old order;
 * rows refused for want of balance (never charged) are queued again with them, same charge key.
 */
export async function releaseRows(tx: Db, c: CampaignRow): Promise<number> {
  const result = await sql`
    update messages m set state = 'pending', error_code = null, error_message = null, not_before = v.due,
      updated_at = now()
    from (select id, ${quietAware(c, sql`now() + (row_number() over (order by id) - 1) * ${spacing(c)}`, sql`phone`)} as due from messages
          where campaign_id = ${c.id} and ((state = 'pending' and not_before = 'infinity')
             or (state = 'failed' and error_code = 'balance_insufficient'))) v
    where m.id = v.id`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** Rows the dispatch refused for want of balance since the last look (they were not charged). */
export async function unpaidRows(db: Db, campaignId: number): Promise<number> {
  const r = await sql<{ n: string }>`select count(*) as n from messages
    where campaign_id = ${campaignId} and state = 'failed' and error_code = 'balance_insufficient'`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Queued rows whose recipient opted out, was blacklisted or banned, or whose lead was deleted since
 * they were queued — or, when the campaign skips them, whose phone a lookup has since found invalid
 * or not a mobile (a lookup step, a lookup of the list meanwhile): they end uncharged
 * (`skipped_<why>`), counted, never sent.
 */
export async function skipGoneRecipients(tx: Db, campaignId: number, teamId: number): Promise<number> {
  const notValidMobile = sql`((select c.skip_invalid_phones from campaigns c where c.id = ${campaignId})
    and ${foundNotValidMobile(teamId, sql`m.phone`)})`;
  const blocked = sql`(not exists (select 1 from leads l where l.id = m.lead_id and l.status <> 'blacklisted')
    or exists (select 1 from lead_values b where b.team_id = ${teamId} and b.type = 'phone' and b.value = m.phone and b.ban is true))`;
  const result = await sql`
    update messages m set state = 'failed', lease_until = null, updated_at = now(),
      error_code = case
        when exists (select 1 from message_opt_outs o where o.team_id = ${teamId} and o.phone = m.phone) then 'skipped_opted_out'
        when m.lead_id is null or not exists (select 1 from leads l where l.id = m.lead_id) then 'skipped_deleted'
        when ${blocked} then 'skipped_blacklisted'
        else 'skipped_not_valid_mobile' end,
      error_message = 'recipient left the campaign'
    where m.campaign_id = ${campaignId} and m.state = 'pending' and (
      exists (select 1 from message_opt_outs o where o.team_id = ${teamId} and o.phone = m.phone)
      or m.lead_id is null or ${blocked} or ${notValidMobile})`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Auto-fail's figures: messages handed to the gateway, and those of them that failed; `open`, the
 * rows still to end (an unknown row refunded after the deadline has ended, decision 024).
 */
export async function sentAndFailed(
  db: Db,
  campaignId: number,
): Promise<{ sent: number; failed: number; open: number }> {
  const r = await sql<{ sent: string; failed: string; open: string }>`
    select count(*) filter (where called_at is not null and state in ('submitted', 'failed')) as sent,
      count(*) filter (where called_at is not null and (state = 'failed'
        or status in ('failed', 'undelivered', 'blocked_by_carrier', 'inactive_device'))) as failed,
      count(*) filter (where state in ('pending', 'claimed') or (state = 'unknown' and refunded_at is null)) as open
    from messages where campaign_id = ${campaignId}`.execute(db);
  const row = r.rows[0];
  return { sent: Number(row?.sent ?? 0), failed: Number(row?.failed ?? 0), open: Number(row?.open ?? 0) };
}

/** A failed campaign's queued rows end uncharged. */
export async function cancelQueued(tx: Db, campaignId: number, code: string): Promise<void> {
  await sql`update messages set state = 'failed', error_code = ${code}, error_message = ${code}, updated_at = now()
    where campaign_id = ${campaignId} and state = 'pending'`.execute(tx);
}

/**
 * Rows that came due inside the quiet hours (queued before them, or waiting behind the rate) wait
 * for the morning; looked at each tick, only among rows already due.
 */
export async function deferQuiet(tx: Db, c: CampaignRow): Promise<number> {
  if (!c.quiet_hours || c.quiet_from === c.quiet_to) return 0;
  const result = await sql`update messages m set not_before = v.due, updated_at = now()
    from (select id, ${quietAware(c, sql`now()`, sql`phone`)} as due from messages
          where campaign_id = ${c.id} and state = 'pending' and not_before <= now()) v
    where m.id = v.id and v.due > now()`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * A step's send-by deadline: rows not yet handed to the gateway `send_by_minutes` after the step
 * began end uncharged (a claimed row's charge is the dispatch's to settle; only pending rows end).
 */
export async function expireSendBy(tx: Db, campaignId: number): Promise<number> {
  const result = await sql`update messages m set state = 'failed', error_code = 'campaign_send_by_passed',
      error_message = 'campaign_send_by_passed', updated_at = now()
    from campaign_steps s
    where s.campaign_id = ${campaignId} and s.send_by_minutes is not null and s.started_at is not null
      and s.started_at + s.send_by_minutes * interval '1 minute' <= now()
      and m.campaign_step_id = s.id and m.state = 'pending'`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}
