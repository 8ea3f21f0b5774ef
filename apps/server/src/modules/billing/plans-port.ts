import { type Kysely, sql } from 'kysely';
import type { TCurrency } from '@herald/shared/billing/billing.schemas';
import type { TActiveSubscription, TCataloguePlan } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../db/schema.ts';
import type { FreeSmsAllowance } from './charges.service.ts';

/** The plans module's functions billing is handed in app.ts (its `catalogue` and `subscriptions`). */
export interface PlansDeps {
  byId(planId: number): TCataloguePlan | undefined;
  activate(tx: Kysely<DB>, input: { teamId: number; planId: number; userId: number }): Promise<unknown>;
  active(teamId: number): Promise<TActiveSubscription[]>;
  dueForRenewal(tx: Kysely<DB>, now: Date): Promise<Array<{ id: number; teamId: number; planId: number }>>;
  renew(tx: Kysely<DB>, subscriptionId: number): Promise<unknown>;
  end(tx: Kysely<DB>, subscriptionId: number): Promise<boolean>;
  /** The start of the plan's history window (null: all of it). */
  historySince(db: Kysely<DB>, teamId: number): Promise<Date | null>;
}

/** What billing uses of plans: a plan to sell, the subscription primitives, the free SMS of the period. */
export interface PlansPort {
  /** `price` null or 0, or the Trial: not sold here (Enterprise: contact us). */
  plan(planId: number): Promise<{
    id: number;
    slug: string;
    name: string;
    price: number | null;
    currency: TCurrency;
    purchasable: boolean;
  } | null>;
  activate(tx: Kysely<DB>, input: { teamId: number; planId: number; userId: number }): Promise<void>;
  /** The team's active subscriptions as `GET /api/subscriptions` answers them. */
  activeSubscriptions(db: Kysely<DB>, teamId: number): Promise<TActiveSubscription[]>;
  freeSms: FreeSmsAllowance;
  /**
   * Read on `db` (the caller's transaction): the team's latest subscription (0: never had one),
   * and the plan in force (null: none). Every purchase starts a new subscription, so the latest
   * one names the state a purchase was made from.
   */
  current(db: Kysely<DB>, teamId: number): Promise<{ latestId: number; planInForce: number | null }>;
  /** Current subscriptions whose period is over at `now`, with the end of that period (the renewal's key). */
  dueForRenewal(
    db: Kysely<DB>,
    now: Date,
  ): Promise<Array<{ id: number; teamId: number; planId: number; periodEnd: Date }>>;
  renew(tx: Kysely<DB>, subscriptionId: number): Promise<void>;
  end(tx: Kysely<DB>, subscriptionId: number): Promise<void>;
  historySince(db: Kysely<DB>, teamId: number): Promise<Date | null>;
}

/**
 * Billing's side of the plans interface. Two reads plans does not offer are made here, on its
 * `subscriptions` table: the period of the team's subscription in force (free SMS are counted
 * within it, on every charge batch, where computing every feature's usage would be far too dear)
 * and the end of a due period (so that a renewal's payment key names its period).
 */
export function plansPortOf(plans: PlansDeps): PlansPort {
  return {
    async plan(planId) {
      const p = plans.byId(planId);
      if (!p) return null;
      return {
        id: p.id,
        slug: p.slug,
        name: p.name.en,
        price: p.price,
        currency: p.currency,
        purchasable: !p.trial && p.price !== null && p.price > 0,
      };
    },
    async activate(tx, input) {
      await plans.activate(tx, input);
    },
    activeSubscriptions: (_db, teamId) => plans.active(teamId),
    async current(db, teamId) {
      const row = await db
        .selectFrom('subscriptions')
        .select(['id', 'plan_id', sql<boolean>`ended_at is null and ends_at > now()`.as('in_force')])
        .where('team_id', '=', teamId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return { latestId: row?.id ?? 0, planInForce: row?.in_force ? row.plan_id : null };
    },
    async freeSms(db, teamId) {
      const row = await db
        .selectFrom('subscriptions')
        .select(['plan_id', 'period_starts_at'])
        .where('team_id', '=', teamId)
        .where('ended_at', 'is', null)
        .where('ends_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      const plan = row && plans.byId(row.plan_id);
      if (!row || !plan) return null;
      const limit = plan.features['free-sms-limit'];
      return { total: limit, since: row.period_starts_at };
    },
    async dueForRenewal(db, now) {
      const due = await plans.dueForRenewal(db, now);
      if (due.length === 0) return [];
      const ends = await db
        .selectFrom('subscriptions')
        .select(['id', 'ends_at'])
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .execute();
      const endOf = new Map(ends.map((e) => [e.id, e.ends_at]));
      return due.map((d) => ({ id: d.id, teamId: d.teamId, planId: d.planId, periodEnd: endOf.get(d.id) ?? now }));
    },
    async renew(tx, id) {
      await plans.renew(tx, id);
    },
    async end(tx, id) {
      await plans.end(tx, id);
    },
    historySince: (db, teamId) => plans.historySince(db, teamId),
  };
}
