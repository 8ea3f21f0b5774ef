import { type Kysely, sql } from 'kysely';
import type { TCataloguePlan } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../db/schema.ts';

export type SubscriptionRow = {
  id: number;
  team_id: number;
  plan_id: number;
  plan_slug: string;
  period_starts_at: Date;
  ends_at: Date;
  renewals: number;
};

const columns = ['id', 'team_id', 'plan_id', 'plan_slug', 'period_starts_at', 'ends_at', 'renewals'] as const;

const periodOf = (plan: TCataloguePlan) =>
  sql<string>`make_interval(months => ${plan.period.months}::int, days => ${plan.period.days}::int)`;

/** SQL of subscriptions and of the uses the plans record themselves; every call names its team. */
export function createSubscriptionsRepository() {
  return {
    /** The team's subscription in force now: current and its period not over. */
    async active(db: Kysely<DB>, teamId: number): Promise<SubscriptionRow | undefined> {
      return db
        .selectFrom('subscriptions')
        .select(columns)
        .where('team_id', '=', teamId)
        .where('ended_at', 'is', null)
        .where('ends_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
    },

    /** Ends the team's current subscription (whether or not its period is over). */
    async endCurrent(db: Kysely<DB>, teamId: number, reason: 'replaced' | 'not_renewed') {
      await db
        .updateTable('subscriptions')
        .set({ ended_at: sql`now()`, end_reason: reason })
        .where('team_id', '=', teamId)
        .where('ended_at', 'is', null)
        .execute();
    },

    async insert(db: Kysely<DB>, teamId: number, plan: TCataloguePlan, userId: number | null) {
      return db
        .insertInto('subscriptions')
        .values({
          team_id: teamId,
          plan_id: plan.id,
          plan_slug: plan.slug,
          activated_by: userId,
          period_starts_at: sql`now()`,
          ends_at: sql`now() + ${periodOf(plan)}`,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
    },

    /**
     * Gives `plan` (the Trial) to every team that never had a subscription: teams that existed
     * before plans did. A team that had one and let it end is left without.
     */
    async giveToTeamsWithout(db: Kysely<DB>, plan: TCataloguePlan): Promise<number> {
      const result = await sql`
        insert into subscriptions (team_id, plan_id, plan_slug, period_starts_at, ends_at)
        select t.id, ${plan.id}, ${plan.slug}, now(), now() + ${periodOf(plan)}
        from teams t
        where not exists (select 1 from subscriptions s where s.team_id = t.id)
        on conflict (team_id) where ended_at is null do nothing`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /** Current subscriptions whose period is over at `now`: the renewal job's work. */
    async due(db: Kysely<DB>, now: Date, limit: number): Promise<SubscriptionRow[]> {
      return db
        .selectFrom('subscriptions')
        .select(columns)
        .where('ended_at', 'is', null)
        .where('ends_at', '<=', now)
        .orderBy('ends_at')
        .limit(limit)
        .execute();
    },

    /**
     * Starts the next period of a current subscription. It starts where the last ended, or now
     * when the renewal comes late, so a late run never bills a period already past.
     */
    async renew(db: Kysely<DB>, id: number, plan: TCataloguePlan): Promise<SubscriptionRow | undefined> {
      return db
        .updateTable('subscriptions')
        .set({
          period_starts_at: sql`greatest(ends_at, now())`,
          ends_at: sql`greatest(ends_at, now()) + ${periodOf(plan)}`,
          renewals: sql`renewals + 1`,
        })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .returning(columns)
        .executeTakeFirst();
    },

    async end(db: Kysely<DB>, id: number): Promise<boolean> {
      const result = await db
        .updateTable('subscriptions')
        .set({ ended_at: sql`now()`, end_reason: 'not_renewed' })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async findById(db: Kysely<DB>, id: number): Promise<SubscriptionRow | undefined> {
      return db.selectFrom('subscriptions').select(columns).where('id', '=', id).executeTakeFirst();
    },

    /** Plan ids of current subscriptions, to check them against the catalogue at start. */
    async currentPlanIds(db: Kysely<DB>): Promise<number[]> {
      const rows = await db
        .selectFrom('subscriptions')
        .select('plan_id')
        .distinct()
        .where('ended_at', 'is', null)
        .execute();
      return rows.map((r) => r.plan_id);
    },

    async recordUse(db: Kysely<DB>, teamId: number, feature: string, amount: number) {
      await db.insertInto('plan_feature_uses').values({ team_id: teamId, feature, amount }).execute();
    },

    recordedUses(db: Kysely<DB>, teamId: number, feature: string, since: Date) {
      return db
        .selectFrom('plan_feature_uses')
        .select(sql<number>`coalesce(sum(amount), 0)::int`.as('n'))
        .where('team_id', '=', teamId)
        .where('feature', '=', feature)
        .where('created_at', '>=', since);
    },

    /** Takes the team's lock on one feature until the transaction ends (see limits.ts). */
    async lockFeature(db: Kysely<DB>, teamId: number, slug: string) {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`herald.plans.${slug}.${teamId}`}, 0))`.execute(db);
    },
  };
}
export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
