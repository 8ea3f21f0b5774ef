import type { Kysely } from 'kysely';
import { done, message } from '@herald/shared/common/messages';
import { CURRENCIES, SUBSCRIPTION_TEST_AMOUNT } from '@herald/shared/plans/plans.schemas';
import type {
  TActiveSubscription,
  TSubscriptionsResponse,
  TSubscriptionTestRequest,
} from '@herald/shared/plans/plans.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Catalogue, Prices } from './catalogue.ts';
import { type FeatureRegistry, featureStates } from './features.ts';
import type { Limits } from './limits.ts';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.ts';

/** A current subscription whose period is over, as the renewal job needs it. */
export type DueSubscription = {
  id: number;
  teamId: number;
  planId: number;
  /** Minor units of the next period, in `currency`; null for a plan without a price. */
  price: number | null;
  currency: (typeof CURRENCIES)[number];
  /** False for the Trial, a plan without a price, or one gone from the catalogue: end it. */
  renewable: boolean;
};

/** The plans, the team's subscription and its features (decision 015). No Fastify, no HTTP. */
export function createPlansService(deps: {
  db: Kysely<DB>;
  catalogue: Catalogue;
  prices: Prices;
  repo: SubscriptionsRepository;
  features: FeatureRegistry;
  limits: Limits;
}) {
  const { db, catalogue, prices, repo, features, limits } = deps;

  async function answerOf(tx: Kysely<DB>, row: SubscriptionRow): Promise<TActiveSubscription | undefined> {
    const plan = catalogue.byId(row.plan_id);
    if (!plan) return undefined;
    return {
      id: row.id,
      plan_id: plan.id,
      slug: plan.slug,
      name: plan.name,
      price: plan.price,
      currency: plan.currency,
      trial: plan.trial,
      period_starts_at: row.period_starts_at.toISOString(),
      ends_at: row.ends_at.toISOString(),
      features: await featureStates(features, tx, row.team_id, plan.features, row.period_starts_at),
    };
  }

  function planOrThrow(planId: number) {
    const plan = catalogue.byId(planId);
    if (!plan) throw new AppError('not_found', message('plan_not_found'));
    return plan;
  }

  return {
    /** The team's subscriptions in force: none, or the one (the spec's list keeps its shape). */
    async activeSubscriptions(teamId: number, tx: Kysely<DB> = db): Promise<TActiveSubscription[]> {
      const row = await repo.active(tx, teamId);
      const answer = row && (await answerOf(tx, row));
      return answer ? [answer] : [];
    },

    async overview(user: AuthUser): Promise<TSubscriptionsResponse> {
      return {
        available_plans: catalogue.available(),
        active_subscriptions: await this.activeSubscriptions(user.teamId),
        prices: CURRENCIES.map((currency) => ({ currency, ...prices.list[currency] })),
      };
    },

    /**
     * Puts the team on `planId` from now: the current subscription ends as replaced and a new
     * period starts. Runs in the caller's transaction, so a payment and the plan commit together.
     */
    async activate(tx: Kysely<DB>, input: { teamId: number; planId: number; userId: number | null }) {
      const plan = planOrThrow(input.planId);
      // Two purchases of one team at once queue here: the second replaces the first's new row
      // instead of failing on the one-current-subscription index.
      await repo.lockFeature(tx, input.teamId, 'subscription');
      await repo.endCurrent(tx, input.teamId, 'replaced');
      const row = await repo.insert(tx, input.teamId, plan, input.userId);
      return (await answerOf(tx, row)) as TActiveSubscription;
    },

    /** A new team owner's Trial, in the sign-up's transaction. */
    async startTrial(tx: Kysely<DB>, teamId: number, userId: number) {
      await repo.insert(tx, teamId, catalogue.trial, userId);
    },

    /** Current subscriptions whose period is over at `now` (at most `limit`, oldest first). */
    async dueForRenewal(tx: Kysely<DB>, now: Date, limit = 500): Promise<DueSubscription[]> {
      const rows = await repo.due(tx, now, limit);
      return rows.map((row) => {
        const plan = catalogue.byId(row.plan_id);
        return {
          id: row.id,
          teamId: row.team_id,
          planId: row.plan_id,
          price: plan?.price ?? null,
          currency: plan?.currency ?? 'UAH',
          renewable: !!plan && !plan.trial && plan.price !== null,
        };
      });
    },

    /** Starts the next period of a subscription; undefined when it has ended meanwhile. */
    async renew(tx: Kysely<DB>, subscriptionId: number): Promise<TActiveSubscription | undefined> {
      const current = await repo.findById(tx, subscriptionId);
      if (!current) return undefined;
      const row = await repo.renew(tx, subscriptionId, planOrThrow(current.plan_id));
      return row && answerOf(tx, row);
    },

    /** Ends a subscription that is not renewed: the team has none until it buys one. */
    async end(tx: Kysely<DB>, subscriptionId: number): Promise<boolean> {
      return repo.end(tx, subscriptionId);
    },

    /**
     * The spec's test tab: uses 10 of a feature. 'import-contacts' records 10 contacts against the
     * period's import limit, as an import of 10 would, without adding leads; 'send-sms' spends 10
     * free SMS through the billing module, which keeps their record.
     */
    async test(user: AuthUser, input: TSubscriptionTestRequest) {
      const amount = SUBSCRIPTION_TEST_AMOUNT;
      if (input.key === 'import-contacts') {
        await db.transaction().execute(async (tx) => {
          await limits.assertCanCreate(tx, user.teamId, 'import-limit', amount);
          await repo.recordUse(tx, user.teamId, 'import-limit', amount);
        });
        return done('plan_test_imported');
      }
      const consume = features.consumer('free-sms-limit');
      if (!consume) throw new AppError('plan_feature_unavailable', message('free_sms_unavailable'));
      const { afterCommit, ...answer } = await db.transaction().execute(async (tx) => {
        await limits.assertCanCreate(tx, user.teamId, 'free-sms-limit', amount);
        return consume(tx, { teamId: user.teamId, userId: user.id, amount });
      });
      await afterCommit?.();
      return answer;
    },
  };
}
export type PlansService = ReturnType<typeof createPlansService>;
