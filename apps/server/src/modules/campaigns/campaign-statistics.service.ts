import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { percentOf, RECIPIENT_BUCKETS, UNCONFIRMED_AFTER_HOURS } from '@herald/shared/campaigns/campaign-results';
import type {
  TCampaignStatistic,
  TStatisticFilterType,
  TStatisticLead,
} from '@herald/shared/campaigns/campaign-statistics.schemas';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { BUCKET_SQL, LINKS_OF_MESSAGE, SMS_STATUS_SQL } from './campaign-results.sql.ts';
import { createCampaignStatisticsRepository, type RowGroup } from './campaign-statistics.repository.ts';
import { createLookupStepFigures } from './campaign-statistics-lookup.ts';
import { createCampaignStatisticsSummary } from './campaign-statistics-summary.repository.ts';
import { add, emptyTotals, type Totals, withPercentages } from './campaign-statistics-totals.ts';
import { rowlessOf, withStepTargets } from './campaign-statistics-rowless.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';

/** Spec: 'Statistic is unavailable' for draft and scheduled; every other status has figures. */
const UNAVAILABLE = new Set(['draft', 'scheduled']);
/** Rows without a message while the campaign may still send them wait; after it ended they were not reached. */
const ENDED = new Set(['completed', 'failed', 'rejected']);

export function createCampaignStatistics(deps: { db: Kysely<DB>; repo: Pick<CampaignsRepository, 'find'> }) {
  const { db } = deps;
  const stats = createCampaignStatisticsRepository(db);
  const summary = createCampaignStatisticsSummary(db);
  const lookupStepFigures = createLookupStepFigures(db);

  async function campaignOf(user: AuthUser, id: number) {
    // Its status alone: the full row joins the gateway and counts steps and audiences.
    const c = await db
      .selectFrom('campaigns')
      .select(['id', 'status'])
      .where('team_id', '=', user.teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!c) throw notFound();
    return c;
  }

  async function statistic(user: AuthUser, id: number): Promise<TCampaignStatistic> {
    const teamId = user.teamId;
    // Two rounds of reads in all (each statement names the team, so none reads another team's rows
    // before the campaign is found): on a busy machine every round trip waits for a CPU.
    const [c, currency, steps, firstPosition, names, lookupSteps] = await Promise.all([
      campaignOf(user, id),
      stats.currency(teamId),
      db
        .selectFrom('campaign_steps')
        .select(['id', 'position', 'limit_cap', 'redirect_to'])
        .where('campaign_id', '=', id)
        .where('team_id', '=', teamId)
        .where('type', '=', 'sms')
        .orderBy('position')
        .execute(),
      stats.firstPosition(teamId, id),
      stats.gatewayNames(teamId),
      lookupStepFigures(teamId, id),
    ]);
    const base = { unconfirmed_after_hours: UNCONFIRMED_AFTER_HOURS, currency };
    if (UNAVAILABLE.has(c.status)) {
      return {
        ...base,
        available: false,
        campaign: null,
        steps: [],
        lookup_steps: [],
        opt_outs: { stop: 0, unsubscribe_link: 0 },
        links: [],
        hourly: [],
        by_gateway: [],
        by_sender: [],
      };
    }
    // The summary (decision 037); a person across several steps is still counted from the rows.
    const oneStep = steps.length <= 1;
    const [groups, byReason, storedLinks, hourly, peopleOfRows, optOuts] = await Promise.all([
      summary.groups(teamId, id),
      summary.recipients(id),
      summary.links(id),
      summary.hourly(id),
      oneStep ? null : stats.people(teamId, id),
      oneStep
        ? Promise.all([stats.stops(teamId, id), summary.unsubscribed(id)]).then(([stop, unsubscribe_link]) => ({
            stop,
            unsubscribe_link,
          }))
        : stats.optOuts(teamId, id),
    ]);
    let people = peopleOfRows;
    const recipients = [...byReason.values()].reduce((a, b) => a + b, 0);
    const rowless = rowlessOf(steps, groups, byReason, firstPosition);
    const links = withStepTargets(storedLinks, steps);
    const ended = ENDED.has(c.status);
    const campaign = emptyTotals();
    const stepFigures = steps.map((s) => {
      const t = emptyTotals();
      for (const g of groups) if (g.step_id === Number(s.id)) add(t, g);
      const rows = RECIPIENT_BUCKETS.reduce((n, b) => n + t.buckets[b], 0);
      // Recipients with no row: skipped at the start, beyond the step's limit cap, or not reached yet.
      let waiting = 0;
      for (const r of rowless.filter((x) => x.step_id === Number(s.id))) {
        if (r.reason !== '') t.skipped[r.reason] = (t.skipped[r.reason] ?? 0) + r.n;
        else waiting += r.n;
      }
      const slots = s.limit_cap === null ? waiting : Math.max(0, Math.min(waiting, s.limit_cap - rows));
      if (waiting > slots) t.skipped.limit_cap = (t.skipped.limit_cap ?? 0) + waiting - slots;
      if (slots > 0 && ended) t.skipped.not_reached = (t.skipped.not_reached ?? 0) + slots;
      else t.buckets.queued += slots;
      t.buckets.skipped = Object.values(t.skipped).reduce((a, b) => a + b, 0);
      const planned = s.limit_cap === null ? recipients : Math.min(recipients, s.limit_cap);
      return {
        step_id: Number(s.id),
        position: s.position,
        limit_cap: s.limit_cap,
        ...withPercentages(t, recipients, planned),
      };
    });
    // The campaign's buckets are its steps' (they add up to `messages`, every step's recipients).
    for (const g of groups) add(campaign, g);
    campaign.skipped = {};
    for (const s of stepFigures) {
      for (const [k, v] of Object.entries(s.skipped)) campaign.skipped[k] = (campaign.skipped[k] ?? 0) + v;
    }
    campaign.buckets.queued = stepFigures.reduce((n, s) => n + s.buckets.queued, 0);
    campaign.buckets.skipped = stepFigures.reduce((n, s) => n + s.buckets.skipped, 0);
    // A person is counted once across steps for clicks and engagement (the click rate is people ÷ delivered people).
    if (people === null) {
      const only = stepFigures[0];
      people = {
        sent: only?.amount_sent ?? 0,
        delivered: only?.amount_delivered ?? 0,
        clicked: only?.amount_clicked ?? 0,
        engaged: only?.amount_eng ?? 0,
      };
    }
    campaign.amount_clicked = people.clicked;
    campaign.amount_eng = people.engaged;
    campaign.amount_not_eng = Math.max(0, people.sent - people.engaged);
    // What the campaign spent: its lookup steps too, as its launch counted them (decision 041).
    const lookupCost = lookupSteps.reduce((n, l) => n + l.cost, 0);
    campaign.actual_cost += lookupCost;
    const messages = stepFigures.reduce((n, s) => n + s.records, 0);
    const figures = withPercentages(campaign, recipients, messages);
    figures.percentage_clicked = percentOf(people.clicked, people.delivered);
    figures.percentage_eng = percentOf(people.engaged, people.sent);
    figures.percentage_not_eng = percentOf(campaign.amount_not_eng, people.sent);

    const slice = (of: (g: RowGroup) => string) => {
      const by = new Map<string, Totals>();
      for (const g of groups) {
        const k = of(g);
        const t = by.get(k) ?? emptyTotals();
        add(t, g);
        by.set(k, t);
      }
      return [...by].map(([k, t]) => {
        const { buckets: _b, skipped: _s, failed: _f, records: _r, ...rest } = withPercentages(t, 0, t.amount_sent);
        return { key: k, ...rest };
      });
    };
    return {
      ...base,
      available: true,
      campaign: { ...figures, messages, lookup_cost: lookupCost },
      steps: stepFigures,
      lookup_steps: lookupSteps,
      opt_outs: optOuts,
      links,
      hourly,
      by_gateway: slice((g) => String(g.gateway_id ?? '')).map(({ key, ...f }) => ({
        gateway_id: key === '' ? null : Number(key),
        name: key === '' ? null : (names.get(Number(key)) ?? null),
        ...f,
      })),
      by_sender: slice((g) => g.sender ?? '\u0000').map(({ key, ...f }) => ({
        sender: key === '\u0000' ? null : key,
        ...f,
      })),
    };
  }

  /** The message rows behind a figure, newest first; `step_id` narrows to one step. */
  async function leads(
    user: AuthUser,
    id: number,
    q: { filter_type: TStatisticFilterType; step_id?: number; page: number; limit: number },
  ) {
    const c = await campaignOf(user, id);
    const limit = q.limit;
    if (UNAVAILABLE.has(c.status)) return { data: [] as TStatisticLead[], meta: pageMeta(q.page, limit, 0) };
    const f = q.filter_type;
    const where =
      f === 'clicked' || f === 'engaged'
        ? sql`coalesce(l.clicked, false)`
        : f === 'unsubscribe'
          ? sql`coalesce(l.unsubscribed, false)`
          : f === 'clicked_or_unsubscribed'
            ? sql`coalesce(l.clicked or l.unsubscribed, false)`
            : f === 'not_engaged'
              ? sql`m.state = 'submitted' and not coalesce(l.clicked or l.unsubscribed, false)`
              : f === 'all_sent'
                ? sql`m.state = 'submitted'`
                : f === 'all_failed' || f === 'unconfirmed' || f === 'skipped' || f === 'unknown'
                  ? sql`(${BUCKET_SQL}) = ${f === 'all_failed' ? 'failed' : f}`
                  : sql`(${SMS_STATUS_SQL}) = ${f}`;
    const step = q.step_id === undefined ? sql`` : sql`and m.campaign_step_id = ${q.step_id}`;
    const from = sql`from messages m ${LINKS_OF_MESSAGE} join campaign_steps s on s.id = m.campaign_step_id
      where m.campaign_id = ${id} and m.team_id = ${user.teamId} ${step} and ${where}`;
    const rowsOf = sql`select 1 as src, m.id as ord, m.lead_id, m.phone, m.campaign_step_id as step_id, s.position,
        ${SMS_STATUS_SQL} as sms_status, ${BUCKET_SQL} as bucket, coalesce(l.clicked, false) as clicked,
        coalesce(l.clicked_at, m.status_at, m.submitted_at, m.created_at) as at ${from}`;
    // Recipients skipped at the start (blacklisted, opted out, no valid phone, …) have no message
    // row; the statistics count them under the first SMS step's skipped, so they are listed there too,
    // with the lead's first phone (a skipped recipient keeps none).
    const first = f === 'skipped' ? await stats.firstSmsStep(user.teamId, id) : undefined;
    const atStart =
      first && (q.step_id === undefined || q.step_id === first.id)
        ? sql`union all select 0, r.lead_id, r.lead_id, coalesce(r.phone, (select v.value from lead_values v
              where v.lead_id = r.lead_id and v.team_id = r.team_id and v.type = 'phone' order by v.id limit 1)),
            ${first.id}::bigint, ${first.position}::int, null, 'skipped', false, r.created_at from campaign_recipients r
          where r.campaign_id = ${id} and r.team_id = ${user.teamId} and r.skip_reason is not null`
        : sql``;
    const total = await sql<{ n: unknown }>`select count(*) as n from (${rowsOf} ${atStart}) x`.execute(db);
    const rows = await sql<Record<string, unknown>>`select * from (${rowsOf} ${atStart}) x
      order by src desc, ord desc limit ${limit} offset ${(q.page - 1) * limit}`.execute(db);
    return {
      data: rows.rows.map(
        (r): TStatisticLead => ({
          lead_id: r.lead_id === null ? null : Number(r.lead_id),
          phone: r.phone === null ? null : String(r.phone),
          step_id: Number(r.step_id),
          position: Number(r.position),
          sms_status: (r.sms_status as TStatisticLead['sms_status']) ?? null,
          bucket: r.bucket as TStatisticLead['bucket'],
          clicked: Boolean(r.clicked),
          at: r.at === null ? null : new Date(r.at as string).toISOString(),
        }),
      ),
      meta: pageMeta(q.page, limit, Number(total.rows[0]?.n ?? 0)),
    };
  }

  return { statistic, leads };
}
export type CampaignStatistics = ReturnType<typeof createCampaignStatistics>;
