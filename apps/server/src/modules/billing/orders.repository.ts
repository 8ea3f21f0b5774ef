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

    /**
     * The plan is bought (from the balance or by another order): the team's unpaid orders for it
     * close, and a late payment of one credits the balance and buys nothing (decision 027).
     */
    async closeOpenSubscriptions(tx: Kysely<DB>, teamId: number, planId: number, except: string | null = null) {
      await tx
        .updateTable('payment_orders')
        .set({ status: 'closed', settled_at: new Date() })
        .where('team_id', '=', teamId)
        .where('purpose', '=', 'subscription')
        .where('plan_id', '=', planId)
        .where('status', '=', 'pending')
        .$if(except !== null, (q) => q.where('order_id', '<>', except as string))
        .execute();
    },

    /** The order, locked until the transaction ends: its callbacks settle it one at a time. */
    async lock(tx: Kysely<DB>, orderId: string) {
      return tx.selectFrom('payment_orders').selectAll().where('order_id', '=', orderId).forUpdate().executeTakeFirst();
    },

    /** The provider's latest status and when it came, whatever it means for the order. */
    async recordStatus(tx: Kysely<DB>, orderId: string, providerStatus: string) {
      await tx
        .updateTable('payment_orders')
        .set({ provider_status: providerStatus, provider_status_at: new Date() })
        .where('order_id', '=', orderId)
        .execute();
    },

    async setStatus(tx: Kysely<DB>, orderId: string, status: 'paid' | 'reversed', paymentId?: string | null) {
      await tx
        .updateTable('payment_orders')
        .set({ status, settled_at: new Date(), ...(paymentId !== undefined ? { payment_id: paymentId } : {}) })
        .where('order_id', '=', orderId)
        .execute();
    },

    async find(orderId: string) {
      return db.selectFrom('payment_orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
    },

    async markDeclined(orderId: string, providerStatus: string, tx: Kysely<DB> = db) {
      await tx
        .updateTable('payment_orders')
        .set({
          status: 'declined',
          provider_status: providerStatus,
          provider_status_at: new Date(),
          settled_at: new Date(),
        })
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
