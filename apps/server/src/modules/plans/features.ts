import { type Kysely, sql } from 'kysely';
import {
  FEATURE_SLUGS,
  type TCatalogueFeatures,
  type TFeatureSlug,
  type TFeatureValue,
  type TSubscriptionFeature,
} from '@herald/shared/plans/plans.schemas';
import type { UsageQuery } from '../../db/plan-limits.ts';
import type { DB } from '../../db/schema.ts';

/**
 * How much of a feature a team uses now, counted from the data (rows that exist, leads imported
 * since `since`), never kept as a counter that could drift: a query the registry runs, with the
 * other usages it is asked for, in one statement on `db`, the caller's transaction when there is
 * one (so a count under the feature's lock sees what committed before it).
 */
export type UsageProvider = UsageQuery;

/**
 * Spends `amount` of a feature that another module keeps the record of (free SMS: billing sends
 * and records them). Answers what it did, as a message code the web translates, and what to do
 * once the caller's transaction has committed (billing tells the team's open tabs).
 */
export type FeatureConsumer = (
  db: Kysely<DB>,
  input: { teamId: number; userId: number; amount: number },
) => Promise<{ code: string; message: string; afterCommit?: () => Promise<void> }>;

/** Features that are a setting, not a count of anything: shown with their value only. */
const NOT_COUNTED: readonly TFeatureSlug[] = ['history-days'];

/** Where each module tells the plans how much of its feature a team uses. */
export function createFeatureRegistry() {
  const providers = new Map<TFeatureSlug, UsageProvider[]>();
  const consumers = new Map<TFeatureSlug, FeatureConsumer>();
  return {
    /** Several providers of one feature add up (imported leads, and the test's recorded uses). */
    provide(slug: TFeatureSlug, provider: UsageProvider) {
      providers.set(slug, [...(providers.get(slug) ?? []), provider]);
    },
    provideConsumer(slug: TFeatureSlug, consumer: FeatureConsumer) {
      consumers.set(slug, consumer);
    },
    consumer: (slug: TFeatureSlug) => consumers.get(slug),
    usages,
    async usage(db: Kysely<DB>, teamId: number, slug: TFeatureSlug, since: Date): Promise<number> {
      return (await usages(db, teamId, [slug], since)).get(slug) ?? 0;
    },
  };

  /**
   * The usage of each of `slugs`, read in one statement (one snapshot, one round trip): a
   * feature nobody provides yet is unused (free SMS until billing registers its spending).
   */
  async function usages(db: Kysely<DB>, teamId: number, slugs: readonly TFeatureSlug[], since: Date) {
    const out = new Map<TFeatureSlug, number>();
    const counted = slugs.filter((slug) => (providers.get(slug) ?? []).length > 0);
    for (const slug of slugs) out.set(slug, 0);
    if (counted.length === 0) return out;
    const columns = counted.map((slug, i) => {
      const parts = (providers.get(slug) ?? []).map((p) => sql`coalesce((${p(db, teamId, since)}), 0)`);
      return sql`${sql.join(parts, sql` + `)} as ${sql.ref(`u${i}`)}`;
    });
    const result = await sql<Record<string, number | string>>`select ${sql.join(columns)}`.execute(db);
    for (const [i, slug] of counted.entries()) out.set(slug, Number(result.rows[0][`u${i}`]));
    return out;
  }
}
export type FeatureRegistry = ReturnType<typeof createFeatureRegistry>;

/** A feature as the subscription shows it: '+'/'-' for a flag, usage/value for a count. */
export function featureState(slug: TFeatureSlug, value: TFeatureValue, usage: number): TSubscriptionFeature {
  if (typeof value === 'boolean') {
    return { slug, value, feature_usage: null, feature_remaining: null, can_use_feature: value };
  }
  if (NOT_COUNTED.includes(slug)) {
    return { slug, value, feature_usage: null, feature_remaining: null, can_use_feature: true };
  }
  if (value === null) return { slug, value, feature_usage: usage, feature_remaining: null, can_use_feature: true };
  const remaining = Math.max(0, value - usage);
  return { slug, value, feature_usage: usage, feature_remaining: remaining, can_use_feature: remaining > 0 };
}

/** Whether `amount` more fits under `value` with `usage` already used (null: unlimited). */
export function fits(value: number | null, usage: number, amount: number): boolean {
  return value === null || usage + amount <= value;
}

/** What is left of a limit (null: unlimited); never below zero, even after a plan shrank. */
export function remainingOf(value: number | null, usage: number): number | null {
  return value === null ? null : Math.max(0, value - usage);
}

/** Every feature of a plan with its usage, in the catalogue's order. */
export async function featureStates(
  registry: FeatureRegistry,
  db: Kysely<DB>,
  teamId: number,
  features: TCatalogueFeatures,
  periodStart: Date,
): Promise<TSubscriptionFeature[]> {
  const counted = FEATURE_SLUGS.filter((slug) => typeof features[slug] !== 'boolean' && !NOT_COUNTED.includes(slug));
  const used = await registry.usages(db, teamId, counted, periodStart);
  return FEATURE_SLUGS.map((slug) => featureState(slug, features[slug], used.get(slug) ?? 0));
}
