import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * The ledger's SQL for what goes back: a charge's row (to refund it), a paid order taken back by
 * the provider, and a debt paid from a credit (decision 027). Each locks the user's row first, so
 * it queues with charges and shares on the same lock, and moves `balance` and `debt` only
 * together with the ledger row that explains the move.
 */
export function createDebtsRepository() {
  async function lockUser(db: Kysely<DB>, teamId: number, userId: number) {
    const { rows } = await sql<{ balance: string; debt: string }>`
      select balance, debt from users where id = ${userId} and team_id = ${teamId} for update`.execute(db);
    return rows[0] ? { balance: Number(rows[0].balance), debt: Number(rows[0].debt) } : null;
  }

  /** Writes one row unless its key is there; answers whether it was written. */
  async function insertRow(
    db: Kysely<DB>,
    row: {
      teamId: number;
      userId: number;
      type: 'payment_reversed' | 'debt_payment';
      amount: number;
      debtChange: number;
      key: string;
      name: string | null;
      orderId: string | null;
    },
  ) {
    const written = await db
      .insertInto('transactions')
      .values({
        team_id: row.teamId,
        user_id: row.userId,
        type: row.type,
        amount: row.amount,
        debt_change: row.debtChange,
        name: row.name,
        idempotency_key: row.key,
        order_id: row.orderId,
      })
      .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return written !== undefined;
  }

  async function move(db: Kysely<DB>, userId: number, amount: number, debt: number) {
    await sql`update users set balance = balance + ${amount}::bigint, debt = debt + ${debt}::bigint
      where id = ${userId}`.execute(db);
  }

  return {
    lockUser,

    /** The row a charge wrote under `key` for the user, if any. */
    async charge(db: Kysely<DB>, teamId: number, userId: number, key: string) {
      return db
        .selectFrom('transactions')
        .select(['amount', 'free_parts', 'name', 'type', 'created_at'])
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },

    /**
     * Takes `amount` back for a reversed order: what the balance holds now, and the rest as a debt.
     * Keyed by the order, so a repeated `reversed` callback takes it once. Answers null when it
     * was taken before.
     */
    async reverse(db: Kysely<DB>, o: { teamId: number; userId: number; orderId: string; amount: number }) {
      const user = await lockUser(db, o.teamId, o.userId);
      if (!user) return null;
      const taken = Math.min(user.balance, o.amount);
      const owed = o.amount - taken;
      const written = await insertRow(db, {
        teamId: o.teamId,
        userId: o.userId,
        type: 'payment_reversed',
        amount: -taken,
        debtChange: owed,
        key: `reversal:${o.orderId}`,
        name: o.orderId,
        orderId: o.orderId,
      });
      if (!written) return null;
      await move(db, o.userId, -taken, owed);
      return { taken, owed };
    },

    /**
     * Pays the user's debt from their balance as far as it goes, after a credit keyed `creditKey`
     * (so a repeated credit pays nothing twice). Answers the minor units paid.
     */
    async payDebt(db: Kysely<DB>, teamId: number, userId: number, creditKey: string, orderId: string | null = null) {
      const user = await lockUser(db, teamId, userId);
      if (!user || user.debt === 0 || user.balance === 0) return 0;
      const paid = Math.min(user.debt, user.balance);
      const written = await insertRow(db, {
        teamId,
        userId,
        type: 'debt_payment',
        amount: -paid,
        debtChange: -paid,
        key: `debt-payment:${creditKey}`,
        name: null,
        orderId,
      });
      if (!written) return 0;
      await move(db, userId, -paid, -paid);
      return paid;
    },
  };
}
export type DebtsRepository = ReturnType<typeof createDebtsRepository>;
