import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { TEngagementPeriod, TSegmentCondition } from '@herald/shared/segments/segment-conditions';

/**
 * The results filters (decision 039): sms_status, engagement, engagement_period and campaigns, as
 * predicates over `leads`. They read campaigns' rows (messages, recipients, short links) and write
 * none. A campaigns `eq` condition in the same list scopes sms_status and engagement to those
 * campaigns' messages ("delivered in campaign X"); without it they look at every campaign.
 */
type Predicate = RawBuilder<SqlBool>;

export interface ResultsScope {
  /** The campaigns of the list's campaigns `eq` condition, if any. */
  campaignIds?: number[];
  /** The list's engagement_period; engaged clicks only count from then on. */
  period?: TEngagementPeriod;
}

/** When each period begins, on the database's clock; months and years in UTC; all_time has no bound. */
const PERIOD_START: Record<TEngagementPeriod, string | null> = {
  '24_hours': `now() - interval '24 hours'`,
  last_7_days: `now() - interval '7 days'`,
  last_30_days: `now() - interval '30 days'`,
  last_90_days: `now() - interval '90 days'`,
  this_month: `(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`,
  this_year: `(date_trunc('year', now() at time zone 'UTC') at time zone 'UTC')`,
  all_time: null,
};

export function scopeOf(conditions: readonly TSegmentCondition[]): ResultsScope {
  const campaigns = conditions.find((c) => c.id === 'campaigns' && c.operator === 'eq');
  const period = conditions.find((c) => c.id === 'engagement_period')?.values[0] as TEngagementPeriod | undefined;
  return { campaignIds: campaigns?.values.map(Number), period };
}

function negate(c: TSegmentCondition, positive: Predicate): Predicate {
  return c.operator === 'not_eq' ? sql<SqlBool>`not ${positive}` : positive;
}

/** eq: one of the lead's campaign messages has one of the statuses; not_eq: none has. */
export function smsStatusPredicate(c: TSegmentCondition, teamId: number, scope: ResultsScope): Predicate {
  const inCampaigns = scope.campaignIds ? sql`and m.campaign_id = any(${scope.campaignIds}::bigint[])` : sql``;
  // `sms_status` is the stored column of migration 0041 (`smsStatusOf` of the shared campaign-results
  // in SQL): its index answers "delivered in campaign X" without visiting the rows.
  return negate(
    c,
    sql<SqlBool>`exists (select 1 from messages m where m.team_id = ${teamId} and m.lead_id = leads.id
      and m.kind = 'campaign_step' ${inCampaigns} and m.sms_status = any(${c.values}::text[]))`,
  );
}

/**
 * engaged: a human (never a bot or a preview) opened a link of the lead's campaign messages, from
 * the period's start; unsubscribe: the lead unsubscribed through a campaign message's link (any
 * time: the period is about clicks, spec section 5).
 */
export function engagementPredicate(c: TSegmentCondition, teamId: number, scope: ResultsScope): Predicate {
  const inCampaigns = scope.campaignIds
    ? sql`and s.message_id in (select m.id from messages m where m.team_id = ${teamId}
        and m.campaign_id = any(${scope.campaignIds}::bigint[]))`
    : sql``;
  const since = scope.period ? PERIOD_START[scope.period] : null;
  const from = since ? sql`and s.first_clicked_at >= ${sql.raw(since)}` : sql``;
  const parts: Predicate[] = [];
  if (c.values.includes('engaged')) {
    parts.push(sql<SqlBool>`exists (select 1 from short_links s where s.team_id = ${teamId} and s.lead_id = leads.id
      and s.kind = 'link' and s.first_clicked_at is not null ${from} ${inCampaigns})`);
  }
  if (c.values.includes('unsubscribe')) {
    parts.push(sql<SqlBool>`exists (select 1 from short_links s where s.team_id = ${teamId} and s.lead_id = leads.id
      and s.kind = 'unsubscribe' and s.unsubscribed_at is not null ${inCampaigns})`);
  }
  if (parts.length === 0) return sql<SqlBool>`false`;
  return negate(c, sql<SqlBool>`(${sql.join(parts, sql` or `)})`);
}

/** eq: the lead was addressed by one of the campaigns (a recipient not skipped at the start); not_eq: by none. */
export function campaignsPredicate(c: TSegmentCondition): Predicate {
  const ids = c.values.map(Number);
  return negate(
    c,
    sql<SqlBool>`exists (select 1 from campaign_recipients r where r.campaign_id = any(${ids}::bigint[])
      and r.lead_id = leads.id and r.skip_reason is null)`,
  );
}
