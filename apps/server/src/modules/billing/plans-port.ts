import type { Kysely } from 'kysely';
import type { TCurrency } from '@herald/shared/billing/billing.schemas';
import type { DB } from '../../db/schema.ts';
import type { FreeSmsAllowance } from './charges.service.ts';

/**
 * What billing needs of the plans module, handed in at `index.ts` (built from plans' own
 * interface in app.ts). Subscription changes run inside billing's transaction, so the money and
 * the plan commit together.
 */
export interface PlansPort {
  /** A plan of the catalogue; `price` null: not sold here (Enterprise: contact us; Trial). */
  plan(
    planId: number,
  ): Promise<{ id: number; name: string; price: number | null; currency: TCurrency; purchasable: boolean } | null>;
  activate(tx: Kysely<DB>, input: { teamId: number; planId: number; userId: number }): Promise<void>;
  /** The team's active subscriptions as `GET /api/subscriptions` answers them. */
  activeSubscriptions(db: Kysely<DB>, teamId: number): Promise<Array<Record<string, unknown>>>;
  freeSms: FreeSmsAllowance;
  /** Subscriptions whose period has ended by `now` and that are still active. */
  dueForRenewal(
    db: Kysely<DB>,
    now: Date,
  ): Promise<Array<{ id: number; teamId: number; planId: number; periodEnd: Date }>>;
  renew(tx: Kysely<DB>, subscriptionId: number): Promise<void>;
  end(tx: Kysely<DB>, subscriptionId: number): Promise<void>;
}
