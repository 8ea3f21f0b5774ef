import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { BUCKET_SQL, LINKS_OF_MESSAGE, REASON_SQL, SMS_STATUS_SQL } from './campaign-results.sql.ts';

type Db = Kysely<DB>;

/** One group of a campaign's message rows: same step, gateway, sender, bucket, reason and SMS status. */
export interface RowGroup {
  step_id: number;
  gateway_id: number | null;
  sender: string | null;
  bucket: string;
  reason: string | null;
  sms_status: string | null;
  n: number;
  /** Rows handed to the gateway (amount_sent), and those of them engaged. */
  sent: number;
  engaged_sent: number;
  parts: number;
  cost: number;
  free_sms: number;
  clicked: number;
  human_clicks: number;
  other_hits: number;
  engaged: number;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * Counts over the campaign's own rows (decision 037): the reference the summary of migration 0037
 * is tested against (`groups`), and the figures the summary does not hold (STOP replies); a person
 * across several steps is read from migration 0044's summary. Every call is scoped by team and campaign.
 */
export function createCampaignStatisticsRepository(db: Db) {
  return {
    async groups(teamId: number, campaignId: number): Promise<RowGroup[]> {
      const r = await sql<Record<string, unknown>>`
        select m.campaign_step_id as step_id, m.gateway_id, m.sender, ${BUCKET_SQL} as bucket,
          ${REASON_SQL} as reason, ${SMS_STATUS_SQL} as sms_status, count(*) as n,
          count(*) filter (where m.state = 'submitted') as sent,
          count(*) filter (where m.state = 'submitted' and (l.clicked or l.unsubscribed)) as engaged_sent,
          sum(m.parts) filter (where m.state = 'submitted') as parts,
          sum(m.price) filter (where m.state in ('submitted', 'unknown') and m.refunded_at is null) as cost,
          sum(m.parts) filter (where m.state = 'submitted' and m.price = 0) as free_sms,
          count(*) filter (where l.clicked) as clicked, sum(l.human_clicks) as human_clicks,
          sum(l.other_hits) as other_hits, count(*) filter (where l.clicked or l.unsubscribed) as engaged
        from messages m ${LINKS_OF_MESSAGE}
        where m.campaign_id = ${campaignId} and m.team_id = ${teamId} and m.campaign_step_id is not null
        group by 1, 2, 3, 4, 5, 6`.execute(db);
      return r.rows.map((x) => ({
        step_id: num(x.step_id),
        gateway_id: x.gateway_id === null ? null : num(x.gateway_id),
        sender: (x.sender as string | null) ?? null,
        bucket: String(x.bucket),
        reason: (x.reason as string | null) ?? null,
        sms_status: (x.sms_status as string | null) ?? null,
        n: num(x.n),
        sent: num(x.sent),
        engaged_sent: num(x.engaged_sent),
        parts: num(x.parts),
        cost: num(x.cost),
        free_sms: num(x.free_sms),
        clicked: num(x.clicked),
        human_clicks: num(x.human_clicks),
        other_hits: num(x.other_hits),
        engaged: num(x.engaged),
      }));
    },

    /**
     * Recipients (one per phone) across steps: sent, delivered, clicked, engaged at least once. One
     * row of the summary migration 0044's triggers keep (a count of distinct phones over every
     * message and its links took about a second on 1,000,000 recipients).
     */
    async people(teamId: number, campaignId: number) {
      const r = await sql<Record<string, unknown>>`
        select p.sent, p.delivered, p.clicked, p.engaged from campaign_statistics_people p
        where p.campaign_id = ${campaignId}
          and exists (select 1 from campaigns c where c.id = p.campaign_id and c.team_id = ${teamId})`.execute(db);
      const x = r.rows[0] ?? {};
      return { sent: num(x.sent), delivered: num(x.delivered), clicked: num(x.clicked), engaged: num(x.engaged) };
    },

    /** Per sms step, recipients with no row for it, by their skip reason ('' for none). */
    async rowless(teamId: number, campaignId: number) {
      const r = await sql<Record<string, unknown>>`
        select s.id as step_id, coalesce(r.skip_reason, '') as reason, count(*) as n
        from campaign_steps s join campaign_recipients r on r.campaign_id = s.campaign_id
        where s.campaign_id = ${campaignId} and s.team_id = ${teamId} and s.type = 'sms'
          and not exists (select 1 from messages m where m.campaign_step_id = s.id and m.phone = r.phone)
        group by 1, 2`.execute(db);
      return r.rows.map((x) => ({ step_id: num(x.step_id), reason: String(x.reason), n: num(x.n) }));
    },

    /** STOP replies from a phone within 7 days after the campaign's message reached it. */
    async stops(teamId: number, campaignId: number): Promise<number> {
      const r = await sql<{ n: unknown }>`select count(*) as n from message_opt_outs o
        where o.team_id = ${teamId} and o.reason = 'inbound_stop'
          and exists (select 1 from messages m where m.team_id = ${teamId} and m.phone = o.phone
            and m.campaign_id = ${campaignId} and m.state = 'submitted'
            and o.created_at >= m.submitted_at and o.created_at < m.submitted_at + interval '7 days')`.execute(db);
      return num(r.rows[0]?.n);
    },

    /** The position of the campaign's first step, any type (the frequency cap marks its recipients). */
    async firstPosition(teamId: number, campaignId: number): Promise<number | null> {
      const r = await sql<{ p: unknown }>`select min(position) as p from campaign_steps
        where campaign_id = ${campaignId} and team_id = ${teamId}`.execute(db);
      return r.rows[0]?.p === null || r.rows[0]?.p === undefined ? null : num(r.rows[0].p);
    },

    /** The campaign's first SMS step: where recipients skipped at the start are counted. */
    async firstSmsStep(teamId: number, campaignId: number) {
      const s = await db
        .selectFrom('campaign_steps')
        .select(['id', 'position'])
        .where('campaign_id', '=', campaignId)
        .where('team_id', '=', teamId)
        .where('type', '=', 'sms')
        .orderBy('position')
        .executeTakeFirst();
      return s ? { id: Number(s.id), position: s.position } : undefined;
    },

    async recipients(teamId: number, campaignId: number): Promise<number> {
      const r = await sql<{ n: unknown }>`select count(*) as n from campaign_recipients
        where campaign_id = ${campaignId} and team_id = ${teamId}`.execute(db);
      return num(r.rows[0]?.n);
    },

    async links(teamId: number, campaignId: number) {
      const r = await sql<Record<string, unknown>>`
        select s.redirect_to, count(*) filter (where s.first_clicked_at is not null) as clickers,
          sum(s.human_clicks) as human_clicks, sum(s.other_hits) as other_hits
        from short_links s join messages m on m.id = s.message_id
        where m.campaign_id = ${campaignId} and m.team_id = ${teamId} and s.kind = 'link'
        group by s.redirect_to order by 2 desc, 1 limit 50`.execute(db);
      return r.rows.map((x) => ({
        redirect_to: (x.redirect_to as string | null) ?? null,
        clickers: num(x.clickers),
        human_clicks: num(x.human_clicks),
        other_hits: num(x.other_hits),
      }));
    },

    /**
     * Opt-outs the campaign caused: its unsubscribe links used (phones, from migration 0044's summary),
     * and STOP replies from a phone within 7 days after the campaign's message reached it (a phone is
     * opted out once per team).
     */
    async optOuts(teamId: number, campaignId: number) {
      const r = await sql<Record<string, unknown>>`
        select (select p.unsubscribed from campaign_statistics_people p join campaigns c on c.id = p.campaign_id
            where p.campaign_id = ${campaignId} and c.team_id = ${teamId}) as unsubscribe_link,
          (select count(*) from message_opt_outs o where o.team_id = ${teamId} and o.reason = 'inbound_stop'
            and exists (select 1 from messages m where m.team_id = ${teamId} and m.phone = o.phone
              and m.campaign_id = ${campaignId} and m.state = 'submitted'
              and o.created_at >= m.submitted_at and o.created_at < m.submitted_at + interval '7 days')) as stop`.execute(
        db,
      );
      return { stop: num(r.rows[0]?.stop), unsubscribe_link: num(r.rows[0]?.unsubscribe_link) };
    },

    /** Deliveries (by their report's time) and first human clicks per message, per UTC hour. */
    async hourly(teamId: number, campaignId: number) {
      const r = await sql<Record<string, unknown>>`
        select h, sum(d) as delivered, sum(c) as clicked from (
          select date_trunc('hour', m.status_at) as h, 1 as d, 0 as c from messages m
          where m.campaign_id = ${campaignId} and m.team_id = ${teamId} and m.state = 'submitted'
            and m.status = 'delivered' and m.status_at is not null
          union all
          select date_trunc('hour', min(s.first_clicked_at)), 0, 1 from short_links s join messages m on m.id = s.message_id
          where m.campaign_id = ${campaignId} and m.team_id = ${teamId} and s.kind = 'link' and s.first_clicked_at is not null
          group by s.message_id) x
        group by h order by h`.execute(db);
      return r.rows.map((x) => ({
        hour: new Date(x.h as string).toISOString(),
        delivered: num(x.delivered),
        clicked: num(x.clicked),
      }));
    },

    /** The team's gateways by id (a handful: read whole, beside the campaign's other reads). */
    async gatewayNames(teamId: number): Promise<Map<number, string>> {
      const rows = await db.selectFrom('gateways').select(['id', 'name']).where('team_id', '=', teamId).execute();
      return new Map(rows.map((g) => [Number(g.id), g.name]));
    },

    async currency(teamId: number): Promise<string | null> {
      const t = await db.selectFrom('teams').select('balance_currency').where('id', '=', teamId).executeTakeFirst();
      return t?.balance_currency ?? null;
    },
  };
}
export type CampaignStatisticsRepository = ReturnType<typeof createCampaignStatisticsRepository>;
