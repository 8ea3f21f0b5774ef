import { type Kysely, sql } from 'kysely';
import { forecastFinish } from '@herald/shared/campaigns/campaign-forecast';
import type { TCampaignPreview } from '@herald/shared/campaigns/campaigns.schemas';
import { message } from '@herald/shared/common/messages';
import { estimateSms } from '@herald/shared/sms/sms-parts';
import { LINK_TAGS, placeholdersOf } from '@herald/shared/templates/render';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { CampaignAudiencesRepository } from './campaign-audiences.repository.ts';
import {
  type AudienceSql,
  emptyBuckets,
  type RecipientBuckets,
  recipientBuckets,
} from './campaign-recipients.repository.ts';
import type { CampaignStepRow, CampaignStepsRepository } from './campaign-steps.repository.ts';
import type { CampaignsDeps } from './campaigns.deps.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';

/** A value stretched to the longest a placeholder takes among the audience, wide when any is. */
type Longest = Record<string, string>;

/**
 * The preview (recipients by bucket, parts, cost, finish) and the launch checks built on it.
 * `audienceOf` and `buckets` are what the engine's start uses too, so the figures match.
 */
export function createCampaignPreview(
  deps: CampaignsDeps & {
    repo: CampaignsRepository;
    steps: CampaignStepsRepository;
    audiences: CampaignAudiencesRepository;
  },
) {
  const { db, repo } = deps;

  /** The campaign's audience as SQL: its sources, lists and segments' predicates, and the ignored formats. */
  async function audienceOf(teamId: number, campaignId: number, q: Kysely<DB> = db): Promise<AudienceSql> {
    const refs = await deps.audiences.refs(teamId, campaignId, q);
    const segments = [];
    for (const r of refs.filter((x) => x.kind === 'segment')) {
      // A segment deleted since it was added reaches no one.
      const chain = await deps.segments.requireChain(teamId, r.ref_id).catch(() => null);
      if (chain) segments.push((await deps.segments.predicate(teamId, chain)).where);
    }
    const rule = await deps.phoneRule(teamId);
    const option = await q
      .selectFrom('campaigns')
      .select('skip_invalid_phones')
      .where('team_id', '=', teamId)
      .where('id', '=', campaignId)
      .executeTakeFirst();
    return {
      skipInvalid: option?.skip_invalid_phones ?? true,
      teamId,
      sources: refs.filter((r) => r.kind === 'source').map((r) => r.ref_id),
      lists: refs.filter((r) => r.kind === 'list').map((r) => r.ref_id),
      segments,
      ignored: rule.ignored.map((re) => re.source),
    };
  }

  /** Once recipients are fixed, the preview reads them as the engine wrote them. */
  async function fixedBuckets(teamId: number, campaignId: number): Promise<RecipientBuckets> {
    const rows = await sql<{ skip_reason: string | null; sample: string | null; n: string }>`
      select skip_reason, min(phone) as sample, count(*) as n from campaign_recipients
      where campaign_id = ${campaignId} and team_id = ${teamId}
      group by skip_reason, case when skip_reason is null then left(phone, 5) end`.execute(db);
    const out = emptyBuckets();
    for (const r of rows.rows) {
      const n = Number(r.n);
      out.audience += n;
      if (r.skip_reason === null) {
        out.recipients += n;
        if (r.sample) out.byPrefix.push({ sample: r.sample, n });
      } else out.skipped[r.skip_reason as keyof RecipientBuckets['skipped']] += n;
    }
    return out;
  }

  /** Per placeholder, a stand-in as long as the longest value any audience lead gives it. */
  async function longestValues(a: AudienceSql, slugs: string[]): Promise<Longest> {
    const members = [...a.segments];
    if (a.sources.length > 0) members.push(sql`leads.source_id = any(${a.sources}::bigint[])`);
    if (a.lists.length > 0) members.push(sql`leads.list_id = any(${a.lists}::bigint[])`);
    if (slugs.length === 0 || members.length === 0) return {};
    const rows = await sql<{ slug: string; longest: number; wide: boolean }>`
      select slug, max(total) as longest, bool_or(wide) as wide from (
        select at.slug, sum(length(v.value)) + 2 * (count(*) - 1) as total, bool_or(v.value ~ '[^[:ascii:]]') as wide
        from leads join lead_values v on v.lead_id = leads.id and v.team_id = ${a.teamId}
        join lead_attributes at on at.id = v.attribute_id and at.slug = any(${slugs}::text[])
        where leads.team_id = ${a.teamId} and (${sql.join(members, sql` or `)})
        group by v.lead_id, at.slug) per_lead
      group by slug`.execute(db);
    // A wide value turns the whole message into UCS-2: the stand-in says so with a Cyrillic letter.
    return Object.fromEntries(
      rows.rows.map((r) => [r.slug, (r.wide ? 'Ж' : 'x').repeat(Math.max(1, Number(r.longest)))]),
    );
  }

  function partsOf(step: CampaignStepRow, longest: Longest) {
    const count = estimateSms(step.message, longest);
    return { parts: count.parts, encoding: count.encoding, length: count.characters };
  }

  async function preview(teamId: number, payerId: number, campaignId: number): Promise<TCampaignPreview> {
    const campaign = await repo.find(teamId, campaignId);
    if (!campaign) throw notFound();
    const steps = await deps.steps.ofCampaign(teamId, campaignId);
    const audience = await audienceOf(teamId, campaignId);
    const buckets =
      campaign.started_at !== null
        ? await fixedBuckets(teamId, campaignId)
        : await recipientBuckets(db, campaignId, audience, { write: false });
    const slugs = [...new Set(steps.flatMap((s) => placeholdersOf(s.message)).filter((t) => !LINK_TAGS.includes(t)))];
    const longest = await longestValues(audience, slugs);
    // The price of a part to each group of phones, weighted by its recipients.
    let priced = 0;
    for (const g of buckets.byPrefix) priced += g.n * (await deps.billing.pricePerPart(teamId, payerId, g.sample));
    const meanPrice = buckets.recipients > 0 ? priced / buckets.recipients : 0;
    const perStep = steps.map((s) => {
      const p = s.type === 'lookup' ? { parts: 0, encoding: 'GSM-7' as const, length: 0 } : partsOf(s, longest);
      const recipients = s.limit_cap === null ? buckets.recipients : Math.min(buckets.recipients, s.limit_cap);
      return { step_id: s.id, position: s.position, type: s.type, recipients, ...p, parts_total: recipients * p.parts };
    });
    const balance = await deps.billing.profileBalance(teamId, campaign.launched_by ?? payerId);
    // A lookup step: each recipient's phone at the lookup price — at most, as a fresh result found at
    // its run is reused free (decision 041).
    const lookupPrice = deps.billing.lookupPrice?.(balance.balance_currency) ?? 0;
    const lookupPhones = perStep.filter((s) => s.type === 'lookup').reduce((a, s) => a + s.recipients, 0);
    const lookupMoney = lookupPhones * lookupPrice;
    const partsTotal = perStep.reduce((a, s) => a + s.parts_total, 0);
    const freeLeft = balance.free_sms.remaining;
    const freeParts = freeLeft === null ? partsTotal : Math.min(partsTotal, freeLeft);
    const paidParts = partsTotal - freeParts;
    const money = Math.ceil(paidParts * meanPrice) + lookupMoney;
    const firstParts = perStep[0]?.parts_total ?? 0;
    const firstPaid = Math.max(0, firstParts - (freeLeft === null ? firstParts : freeLeft));
    const firstMoney =
      perStep[0]?.type === 'lookup' ? perStep[0].recipients * lookupPrice : Math.ceil(firstPaid * meanPrice);
    const rate = await gatewayPerMinute(teamId, campaign.gateway_id);
    const maxParts = Math.max(1, ...perStep.map((s) => s.parts));
    const perMinute = Math.max(
      0,
      Math.min(campaign.frequency_per_minute, rate === null ? Number.POSITIVE_INFINITY : Math.floor(rate / maxParts)),
    );
    const start = campaign.start_at && campaign.start_at > new Date() ? new Date(campaign.start_at) : new Date();
    const finish = forecastFinish({
      start,
      perMinute,
      steps: perStep.map((s, i) => ({ recipients: s.recipients, delayMinutes: steps[i].delay_minutes })),
      quiet: campaign.quiet_hours
        ? { from: campaign.quiet_from, to: campaign.quiet_to, timeZone: campaign.timezone }
        : null,
    });
    return {
      audience: buckets.audience,
      recipients: buckets.recipients,
      skipped: buckets.skipped,
      steps: perStep,
      cost: {
        parts_total: partsTotal,
        free_parts: freeParts,
        paid_parts: paidParts,
        price_per_part: Math.round(meanPrice),
        lookup_phones: lookupPhones,
        lookup_price: lookupPrice,
        lookup_money: lookupMoney,
        money,
        currency: balance.balance_currency,
        balance: balance.balance,
        first_step_payable: firstMoney <= balance.balance,
        payable: money <= balance.balance,
      },
      finish: { starts_at: start.toISOString(), finishes_at: finish?.toISOString() ?? null, per_minute: perMinute },
    };
  }

  /** Parts a minute the gateway takes: its own setting, else what its provider declares. */
  async function gatewayPerMinute(teamId: number, gatewayId: number | null): Promise<number | null> {
    if (gatewayId === null) return null;
    const { gateway, adapter } = await deps.gateways.adapter(teamId, gatewayId).catch(() => ({
      gateway: { params: {} as Record<string, unknown> },
      adapter: { capabilities: { requestsPerSecond: 0 } },
    }));
    const own = Number(gateway.params.parts_per_second);
    const perSecond = Number.isFinite(own) && own > 0 ? own : adapter.capabilities.requestsPerSecond;
    return perSecond > 0 ? perSecond * 60 : null;
  }

  return {
    audienceOf,
    preview: (user: AuthUser, campaignId: number) => preview(user.teamId, user.id, campaignId),

    /**
     * Refuses to schedule what cannot start: no gateway, no audience, no step or a blank one, no
     * plan (the owner is asked to activate one), or a first step the payer's balance cannot pay.
     */
    async assertLaunchable(user: AuthUser, campaignId: number): Promise<void> {
      const campaign = await repo.find(user.teamId, campaignId);
      if (!campaign) throw notFound();
      if (campaign.gateway_id === null) throw AppError.field('gateway_id', 'campaign_gateway_required');
      const sending = await deps.gateways.sendingList(user.teamId);
      if (!sending.some((g) => g.id === Number(campaign.gateway_id)))
        throw AppError.field('gateway_id', 'campaign_gateway_unusable');
      if (campaign.audiences_count === 0)
        throw new AppError('validation_failed', message('campaign_audience_required'));
      const steps = await deps.steps.ofCampaign(user.teamId, campaignId);
      if (steps.length === 0 || steps.some((s) => s.type === 'sms' && s.message.trim() === ''))
        throw new AppError('validation_failed', message('campaign_steps_required'));
      if ((await deps.subscriptions(user.teamId)).length === 0) throw new AppError('subscription_required');
      if (campaign.started_at !== null) return;
      const p = await preview(user.teamId, user.id, campaignId);
      if (!p.cost.first_step_payable)
        throw new AppError('balance_insufficient', message('balance_not_enough_messages'));
    },
  };
}

export type CampaignPreview = ReturnType<typeof createCampaignPreview>;
