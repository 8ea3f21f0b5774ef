import { type Kysely, sql } from 'kysely';
import type { TCampaignStepStatus } from '@herald/shared/campaigns/campaign-moves';
import { percentOf } from '@herald/shared/campaigns/campaign-results';
import type { TStatisticLookupStep } from '@herald/shared/campaigns/campaign-statistics.schemas';
import type { TLookupStatusCode } from '@herald/shared/lookups/lookups.schemas';
import type { DB } from '../../db/schema.ts';

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A phone with a result: looked up by the provider, or settled free at the fill. */
const SETTLED = sql`i.state in ('done', 'reused')`;
/** Not a mobile the SMS step may send to (the engine's `foundNotValidMobile`, less `invalid`). */
const notMobile = (type: string) =>
  sql`count(*) filter (where ${SETTLED} and pl.status_label <> 'invalid' and pl.carrier_type = ${type})`;

/** The item counts of one lookup: the part of the read that grows with its phones. */
type Counts = Record<string, unknown>;

/**
 * How long a lookup's counts are kept: counting a lookup of 100,000 phones took 0.3–0.4 s on a
 * loaded PostgreSQL, and the screen reads the statistics every 5 s while the campaign sends. A
 * completed lookup's counts change only when another lookup replaces results of its phones; a
 * large running one is counted at most every 10 s (a small one every read: its progress is wanted live).
 */
const KEEP_COMPLETED_MS = 60_000;
const KEEP_RUNNING_MS = 10_000;
const LARGE = 10_000;

/**
 * A campaign's lookup steps for its statistics (decision 041), in step order: each step's one lookup
 * (made when its turn came) and its phones counted from the lookup's items, each by the team's
 * result of that phone — the result the SMS step after it acted on, and what the step's card in the
 * composer shows. A phone whose result a later lookup replaced counts by the newer result, as the
 * campaign's later steps would treat it. The money is the lookup's `cost`, which the engine adds in
 * the transaction that writes the phones' results (their charges kept; a failed call's charge is
 * refunded and never added), and `saved` for the phones reused. Scoped by team: a statement before
 * the campaign is found reads nothing of another team's.
 */
export function createLookupStepFigures(db: Kysely<DB>) {
  const kept = new Map<number, { until: number; counts: Counts }>();

  async function countsOf(teamId: number, lookupId: number): Promise<Counts> {
    const r = await sql<Counts>`
      select count(*) as phones, count(*) filter (where i.state = 'done') as looked_up,
        count(*) filter (where i.state = 'reused') as reused, count(*) filter (where i.state = 'failed') as failed,
        sum(i.refunds) as refunds,
        count(*) filter (where ${SETTLED} and pl.status_label = 'valid' and pl.carrier_type = 'mobile') as valid_mobile,
        count(*) filter (where ${SETTLED} and pl.status_label = 'invalid') as invalid,
        count(*) filter (where ${SETTLED} and (pl.phone is null
          or (pl.status_label = 'unknown' and pl.carrier_type = 'mobile'))) as unknown,
        ${notMobile('landline')} as landline, ${notMobile('voip')} as voip,
        ${notMobile('toll_free')} as toll_free, ${notMobile('other')} as other
      from lookup_items i left join phone_lookups pl on pl.team_id = ${teamId} and pl.phone = i.phone
      where i.lookup_id = ${lookupId} and i.team_id = ${teamId}`.execute(db);
    return r.rows[0] ?? {};
  }

  async function counts(teamId: number, lookup: { id: number; status: number; phones: number }) {
    const now = Date.now();
    for (const [id, k] of kept) if (k.until <= now) kept.delete(id);
    const hit = kept.get(lookup.id);
    if (hit) return hit.counts;
    const fresh = await countsOf(teamId, lookup.id);
    const keep = lookup.status === 3 ? KEEP_COMPLETED_MS : lookup.phones >= LARGE ? KEEP_RUNNING_MS : 0;
    if (keep > 0) kept.set(lookup.id, { until: now + keep, counts: fresh });
    return fresh;
  }

  return async function lookupStepFigures(teamId: number, campaignId: number): Promise<TStatisticLookupStep[]> {
    const steps = await sql<Record<string, unknown>>`
      select s.id as step_id, s.position, s.status as step_status, k.id as lookup_id, k.status as lookup_status,
        k.phones as lookup_phones, k.paused_reason, coalesce(k.gateway_id, s.gateway_id) as gateway_id,
        g.name as gateway_name, k.cost, k.saved
      from campaign_steps s
        left join lookups k on k.campaign_step_id = s.id and k.team_id = s.team_id
        left join gateways g on g.id = coalesce(k.gateway_id, s.gateway_id) and g.team_id = s.team_id
      where s.campaign_id = ${campaignId} and s.team_id = ${teamId} and s.type = 'lookup'
      order by s.position`.execute(db);
    const rows = await Promise.all(
      steps.rows.map(async (s) => {
        const id = idOrNull(s.lookup_id);
        if (id === null) return s;
        return {
          ...s,
          ...(await counts(teamId, { id, status: num(s.lookup_status), phones: num(s.lookup_phones) })),
        };
      }),
    );
    return rows.map(figuresOf);
  };
}

function figuresOf(x: Record<string, unknown>): TStatisticLookupStep {
  const byType = {
    landline: num(x.landline),
    voip: num(x.voip),
    toll_free: num(x.toll_free),
    other: num(x.other),
  };
  const phones = num(x.phones);
  const done = num(x.looked_up) + num(x.reused);
  const notMobileAll = byType.landline + byType.voip + byType.toll_free + byType.other;
  const validMobile = num(x.valid_mobile);
  const invalid = num(x.invalid);
  const unknown = num(x.unknown);
  return {
    step_id: Number(x.step_id),
    position: Number(x.position),
    status: x.step_status as TCampaignStepStatus,
    lookup_id: idOrNull(x.lookup_id),
    lookup_status: idOrNull(x.lookup_status) as TLookupStatusCode | null,
    paused_reason: (x.paused_reason as string | null) ?? null,
    gateway_id: idOrNull(x.gateway_id),
    gateway_name: (x.gateway_name as string | null) ?? null,
    phones,
    done,
    percentage_done: percentOf(done, phones),
    looked_up: num(x.looked_up),
    reused: num(x.reused),
    failed: num(x.failed),
    refunds: num(x.refunds),
    valid_mobile: validMobile,
    percentage_valid_mobile: percentOf(validMobile, done),
    invalid,
    percentage_invalid: percentOf(invalid, done),
    not_mobile: notMobileAll,
    percentage_not_mobile: percentOf(notMobileAll, done),
    not_mobile_by_type: byType,
    unknown,
    percentage_unknown: percentOf(unknown, done),
    cost: num(x.cost),
    saved: num(x.saved),
  };
}
