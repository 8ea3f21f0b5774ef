import { type Kysely, sql } from 'kysely';
import { UNCONFIRMED_AFTER_HOURS } from '@herald/shared/campaigns/campaign-results';
import type { DB } from '../../db/schema.ts';
import { LINKS_OF_MESSAGE, SMS_STATUS_SQL } from './campaign-results.sql.ts';
import type { RowGroup } from './campaign-statistics.repository.ts';

type Db = Kysely<DB>;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

const FIGURES = [
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
] as const;

function group(x: Record<string, unknown>, bucket: string): RowGroup {
  const g = {
    step_id: num(x.step_id),
    gateway_id: x.gateway_id === null || num(x.gateway_id) === 0 ? null : num(x.gateway_id),
    sender: x.sender === null || x.sender === '' ? null : String(x.sender),
    bucket,
    reason: x.reason === null || x.reason === '' ? null : String(x.reason),
    sms_status: x.sms_status === null || x.sms_status === '' ? null : String(x.sms_status),
  } as RowGroup;
  for (const f of FIGURES) g[f] = num(x[f]);
  return g;
}

const keyOf = (g: RowGroup, bucket: string, status: string | null) =>
  [g.step_id, g.gateway_id, g.sender, bucket, g.reason, status].join('\u0001');

/**
 * The statistics read from the summary the triggers of migration 0037 keep (decision 037), plus the
 * two things no statement moves: sent rows that passed 72 h without a final report (an index range
 * on submitted_at, empty while a campaign is young) and claimed rows (stored as queued so that a
 * claim never writes the summary; at most the dispatch's batch in flight). Every call names the
 * campaign of a team the caller has already checked.
 */
export function createCampaignStatisticsSummary(db: Db) {
  return {
    async groups(teamId: number, campaignId: number): Promise<RowGroup[]> {
      const [stored, unconfirmed, sending] = await Promise.all([
        sql<Record<string, unknown>>`select * from campaign_statistics where campaign_id = ${campaignId}`.execute(db),
        sql<Record<string, unknown>>`
          select m.campaign_step_id as step_id, m.gateway_id, m.sender, null as reason, ${SMS_STATUS_SQL} as sms_status,
            count(*) as n, count(*) as sent, count(*) filter (where l.clicked or l.unsubscribed) as engaged_sent,
            sum(m.parts) as parts, sum(m.price) filter (where m.refunded_at is null) as cost,
            sum(m.parts) filter (where m.price = 0) as free_sms, count(*) filter (where l.clicked) as clicked,
            sum(l.human_clicks) as human_clicks, sum(l.other_hits) as other_hits,
            count(*) filter (where l.clicked or l.unsubscribed) as engaged
          from messages m ${LINKS_OF_MESSAGE}
          where m.campaign_id = ${campaignId} and m.team_id = ${teamId} and m.campaign_step_id is not null
            and m.state = 'submitted' and (m.status is null or m.status in ('queued', 'sending', 'sent'))
            and m.submitted_at <= now() - make_interval(hours => ${UNCONFIRMED_AFTER_HOURS})
          group by 1, 2, 3, 4, 5`.execute(db),
        sql<Record<string, unknown>>`
          select m.campaign_step_id as step_id, m.gateway_id, m.sender, null as reason, 'queued' as sms_status,
            count(*) as n
          from messages m
          where m.campaign_id = ${campaignId} and m.state = 'claimed' and m.team_id = ${teamId}
            and m.campaign_step_id is not null
          group by 1, 2, 3`.execute(db),
      ]);
      const by = new Map<string, RowGroup>();
      for (const x of stored.rows) {
        const g = group(x, String(x.bucket));
        by.set(keyOf(g, g.bucket, g.sms_status), g);
      }
      // Moves from one stored group to another: `from` loses the figures, `to` gains them.
      const move = (moved: RowGroup, from: string, to: RowGroup) => {
        const f = by.get(from);
        const t = by.get(keyOf(to, to.bucket, to.sms_status)) ?? {
          ...to,
          ...Object.fromEntries(FIGURES.map((k) => [k, 0])),
        };
        for (const k of FIGURES) {
          if (f) f[k] -= moved[k];
          t[k] += moved[k];
        }
        by.set(keyOf(t, t.bucket, t.sms_status), t);
      };
      for (const x of unconfirmed.rows) {
        const g = group(x, 'unconfirmed');
        move(g, keyOf(g, 'sent', g.sms_status), g);
      }
      for (const x of sending.rows) {
        const g = group(x, 'queued');
        move(g, keyOf(g, 'queued', 'queued'), { ...g, sms_status: 'sending' });
      }
      return [...by.values()].filter((g) => FIGURES.some((k) => g[k] !== 0));
    },

    /** Recipients by skip reason ('' for those to send), fixed at the start and changed by the cap. */
    async recipients(campaignId: number): Promise<Map<string, number>> {
      const r = await sql<{ reason: string; n: unknown }>`select reason, n from campaign_statistics_recipients
        where campaign_id = ${campaignId} and n <> 0`.execute(db);
      return new Map(r.rows.map((x) => [x.reason, num(x.n)]));
    },

    /** Messages whose unsubscribe link was used (a person on a one-step campaign). */
    async unsubscribed(campaignId: number): Promise<number> {
      const r = await sql<{ n: unknown }>`select sum(unsubscribed) as n from campaign_statistics
        where campaign_id = ${campaignId}`.execute(db);
      return num(r.rows[0]?.n);
    },

    async links(campaignId: number) {
      const r = await sql<Record<string, unknown>>`select redirect_to, clickers, human_clicks, other_hits
        from campaign_statistics_links where campaign_id = ${campaignId}
        order by clickers desc, redirect_to limit 50`.execute(db);
      return r.rows.map((x) => ({
        redirect_to: (x.redirect_to as string | null) ?? null,
        clickers: num(x.clickers),
        human_clicks: num(x.human_clicks),
        other_hits: num(x.other_hits),
      }));
    },

    async hourly(campaignId: number) {
      const r = await sql<Record<string, unknown>>`select hour, delivered, clicked from campaign_statistics_hourly
        where campaign_id = ${campaignId} and (delivered <> 0 or clicked <> 0) order by hour`.execute(db);
      return r.rows.map((x) => ({
        hour: new Date(x.hour as string).toISOString(),
        delivered: num(x.delivered),
        clicked: num(x.clicked),
      }));
    },

    /** The campaign's summary recounted from its rows (migration 0037's function: the reference). */
    async rebuild(campaignId: number): Promise<void> {
      await sql`select herald_campaign_statistics_rebuild(${campaignId})`.execute(db);
    },
  };
}
export type CampaignStatisticsSummary = ReturnType<typeof createCampaignStatisticsSummary>;
