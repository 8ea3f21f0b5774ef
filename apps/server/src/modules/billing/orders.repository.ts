import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TCurrency } from '@herald/shared/billing/billing.schemas';
import type { DB } from '../../db/schema.ts';

/** Payment orders: written before the checkout opens; settled once, by the transaction that credits. */
export function createOrdersRepository(db: Kysely<DB>) {
  return {
    async create(
      order: {
        teamId: number;
        userId: number;
        purpose: 'top_up' | 'subscription';
        planId: number | null;
        amount: number;
        currency: TCurrency;
      },
      tx: Kysely<DB> = db,
    ) {
      // Opaque and unguessable: the order id travels through the browser.
      const orderId = `h${Date.now().toString(36)}${randomBytes(12).toString('hex')}`;
      return tx
        .insertInto('payment_orders')
        .values({
          order_id: orderId,
          team_id: order.teamId,
          user_id: order.userId,
          purpose: order.purpose,
          plan_id: order.planId,
          amount: order.amount,
          currency: order.currency,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * The team's newest unpaid order for this plan at this price, made since `since`: a second
     * purchase of the plan before the first was paid opens the same checkout, not a second order
     * that could be paid too.
     */
    async openSubscription(
      tx: Kysely<DB>,
      o: { teamId: number; planId: number; amount: number; currency: TCurrency; since: Date },
    ) {
      return tx
        .selectFrom('payment_orders')
        .selectAll()
        .where('team_id', '=', o.teamId)
        .where('purpose', '=', 'subscription')
        .where('plan_id', '=', o.planId)
        .where('amount', '=', o.amount)
        .where('currency', '=', o.currency)
        .where('status', '=', 'pending')
        .where('created_at', '>=', o.since)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },

    async find(orderId: string) {
      return db.selectFrom('payment_orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
    },

    /**
     * pending (or declined) → paid, once: the conditional UPDATE answers the row to exactly one of
     * any number of concurrent callbacks; the others get nothing and change nothing.
     */
    async markPaid(tx: Kysely<DB>, orderId: string, providerStatus: string, paymentId: string | null) {
      return tx
        .updateTable('payment_orders')
        .set({ status: 'paid', provider_status: providerStatus, payment_id: paymentId, settled_at: new Date() })
        .where('order_id', '=', orderId)
        .where('status', '<>', 'paid')
        .returningAll()
        .executeTakeFirst();
    },

    async markDeclined(orderId: string, providerStatus: string) {
      await db
        .updateTable('payment_orders')
        .set({ status: 'declined', provider_status: providerStatus, settled_at: new Date() })
        .where('order_id', '=', orderId)
        .where('status', '=', 'pending')
        .execute();
    },

    /** The sandbox checkout's key pair: made once, then the same for every process. */
    async sandboxKeys(): Promise<{ publicKey: string; privateKey: string }> {
      await db
        .insertInto('checkout_keys')
        .values({
          id: 1,
          public_key: `sandbox_${randomBytes(8).toString('hex')}`,
          private_key: `sandbox_${randomBytes(24).toString('hex')}`,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await db.selectFrom('checkout_keys').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      return { publicKey: row.public_key, privateKey: row.private_key };
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
