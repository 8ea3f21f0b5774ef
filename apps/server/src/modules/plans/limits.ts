import type { Kysely } from 'kysely';
import type { TMessageCode } from '@herald/shared/common/messages';
import { message } from '@herald/shared/common/messages';
import { isFlagFeature, type TCataloguePlan, type TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import { DAY_MS } from '../../db/plan-limits.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Catalogue } from './catalogue.ts';
import { type FeatureRegistry, fits } from './features.ts';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.ts';

/** The message the web shows for each refusal, naming what the plan does not allow. */
export const LIMIT_MESSAGES: Record<TFeatureSlug, TMessageCode> = {
  'manage-team': 'plan_feature_manage_team',
  'short-url-domain': 'plan_feature_short_url_domain',
  'alpha-name-limit': 'plan_limit_alpha_names',
  'free-sms-limit': 'plan_limit_free_sms',
  'import-limit': 'plan_limit_import',
  'lead-limit': 'plan_limit_leads',
  'audience-limit': 'plan_limit_audiences',
  'source-limit': 'plan_limit_sources',
  'list-limit': 'plan_limit_lists',
  'team-member-limit': 'plan_limit_team_members',
  'history-days': 'plan_limit_history',
  'attribute-limit': 'plan_limit_attributes',
};

export function limitReached(slug: TFeatureSlug, limit: number): AppError {
  return new AppError('plan_limit_reached', message(LIMIT_MESSAGES[slug], { limit, feature: slug }));
}

/**
 * The checks every create path runs inside its own transaction, before its insert:
 * `assertCanCreate(tx, teamId, 'source-limit')`. A count takes the team's lock on the feature
 * first (an advisory transaction lock), so two creates at the last free place queue: the second
 * counts after the first committed, and is refused. Without a subscription nothing is created.
 */
export function createLimits(deps: { repo: SubscriptionsRepository; catalogue: Catalogue; features: FeatureRegistry }) {
  const { repo, catalogue, features } = deps;

  async function activePlan(db: Kysely<DB>, teamId: number): Promise<{ row: SubscriptionRow; plan: TCataloguePlan }> {
    const row = await repo.active(db, teamId);
    const plan = row && catalogue.byId(row.plan_id);
    if (!row || !plan) throw new AppError('subscription_required');
    return { row, plan };
  }

  return {
    activePlan,

    /**
     * The start of what the team's plan lets it see of its histories (decision 015, "History").
     * Without a subscription nothing is cut: the team can do nothing but buy a plan, and its
     * records are not taken from it meanwhile.
     */
    async historySince(db: Kysely<DB>, teamId: number): Promise<Date | null> {
      const row = await repo.active(db, teamId);
      const days = row ? catalogue.byId(row.plan_id)?.features['history-days'] : null;
      return typeof days === 'number' ? new Date(Date.now() - days * DAY_MS) : null;
    },

    /**
     * Refuses (422) unless the team's plan lets it add `amount` more of `slug`: a flag must be on,
     * a count must stay within its value. `db` must be the transaction that then inserts.
     */
    async assertCanCreate(db: Kysely<DB>, teamId: number, slug: TFeatureSlug, amount = 1): Promise<void> {
      if (!isFlagFeature(slug)) await repo.lockFeature(db, teamId, slug);
      const { row, plan } = await activePlan(db, teamId);
      const value = plan.features[slug];
      if (typeof value === 'boolean') {
        if (!value) throw new AppError('plan_feature_missing', message(LIMIT_MESSAGES[slug], { feature: slug }));
        return;
      }
      if (value === null) return;
      const usage = await features.usage(db, teamId, slug, row.period_starts_at);
      if (!fits(value, usage, amount)) throw limitReached(slug, value);
    },
  };
}
export type Limits = ReturnType<typeof createLimits>;
