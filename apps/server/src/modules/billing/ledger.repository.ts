import { type Kysely, sql } from 'kysely';
import type { TTransactionCode } from '@herald/shared/billing/billing.schemas';
import type { PageWindow } from '../../db/find-page.ts';
import { findPage } from '../../db/find-page.ts';
import type { DB } from '../../db/schema.ts';

/** One ledger row to write: `amount` signed minor units (a debit is negative). */
export interface LedgerEntry {
  type: TTransactionCode;
  amount: number;
  key: string;
  name?: string | null;
  count?: number;
  freeParts?: number;
  orderId?: string | null;
  /** How the row moves the user's debt (decision 027); only `reverse` and `payDebt` write one. */
  debtChange?: number;
  meta?: Record<string, unknown> | null;
}

const cols = (entries: LedgerEntry[]) => ({
  keys: entries.map((e) => e.key),
  types: entries.map((e) => e.type),
  amounts: entries.map((e) => e.amount),
  names: entries.map((e) => e.name ?? null),
  counts: entries.map((e) => e.count ?? 1),
  free: entries.map((e) => e.freeParts ?? 0),
  orders: entries.map((e) => e.orderId ?? null),
  debts: entries.map((e) => e.debtChange ?? 0),
  metas: entries.map((e) => (e.meta ? JSON.stringify(e.meta) : null)),
});

/**
 * The ledger's SQL. A balance changes only here, and only together with its ledger rows, in one
 * statement: the conditional UPDATE (`balance >= total`, never read-then-write) and the insert of
 * the rows, whose UNIQUE (user_id, idempotency_key) makes a retried write find its first one.
 */
/** Free SMS parts the team used since `since`, as a query (the usage of its plan's free-sms-limit). */
function freePartsQuery(db: Kysely<DB>, teamId: number, since: Date) {
  return db
    .selectFrom('transactions')
    .select(sql<number>`coalesce(sum(free_parts), 0)`.as('n'))
    .where('team_id', '=', teamId)
    .where('created_at', '>=', since)
    .where('free_parts', '<>', 0);
}

export function createLedgerRepository() {
  return {
    /** Rows of `keys` the user's ledger already holds: charges done before (a retry), by key. */
    async existing(db: Kysely<DB>, userId: number, keys: string[]) {
      const found = new Map<string, { amount: number; freeParts: number }>();
      if (keys.length === 0) return found;
      const rows = await sql<{ k: string; amount: string | number; free_parts: number }>`
        select idempotency_key as k, amount, free_parts from transactions
        where user_id = ${userId} and idempotency_key = any(${keys}::text[])`.execute(db);
      for (const r of rows.rows) found.set(r.k, { amount: Number(r.amount), freeParts: r.free_parts });
      return found;
    },

    /**
     * Writes `entries` to the user's ledger and moves the balance by their sum, in ONE statement,
     * when the balance covers a debit (`balance >= -sum`; the CHECK backs it). Answers null when
     * it does not (nothing written), else the new balance and the keys written. A key written
     * meanwhile by a concurrent retry is skipped by the insert and handed back in `skipped`, its
     * amount already returned to the balance by the caller's `adjust`.
     */
    async post(
      db: Kysely<DB>,
      teamId: number,
      userId: number,
      entries: LedgerEntry[],
    ): Promise<{ balance: number; written: string[] } | null> {
      const total = entries.reduce((s, e) => s + e.amount, 0);
      const c = cols(entries);
      const result = await sql<{ balance: string | number | null; written: string[] | null }>`
        with moved as (
          update users set balance = balance + ${total}::bigint
          where id = ${userId} and team_id = ${teamId} and balance + ${total}::bigint >= 0 and debt = 0
          returning balance
        ), written as (
          insert into transactions (team_id, user_id, type, amount, name, count, free_parts, debt_change, idempotency_key, order_id, meta)
          select ${teamId}, ${userId}, i.type, i.amount, i.name, i.count, i.free_parts, i.debt_change, i.key, i.order_id, i.meta::jsonb
          from unnest(${c.keys}::text[], ${c.types}::text[], ${c.amounts}::bigint[], ${c.names}::text[],
                      ${c.counts}::int[], ${c.free}::int[], ${c.debts}::bigint[], ${c.orders}::text[], ${c.metas}::text[])
               as i(key, type, amount, name, count, free_parts, debt_change, order_id, meta)
          where exists (select 1 from moved)
          on conflict (user_id, idempotency_key) do nothing
          returning idempotency_key
        )
        select (select balance from moved) as balance, (select array_agg(idempotency_key) from written) as written`.execute(
        db,
      );
      const row = result.rows[0];
      if (row.balance === null) return null;
      return { balance: Number(row.balance), written: row.written ?? [] };
    },

    /**
     * Writes credit rows (amounts >= 0) and raises the balance by what was written, in ONE
     * statement: a key written before (a repeated callback) adds nothing. Answers the new balance
     * and the keys written; null when the user is not of the team.
     */
    async credit(
      db: Kysely<DB>,
      teamId: number,
      userId: number,
      entries: LedgerEntry[],
    ): Promise<{ balance: number; written: string[] } | null> {
      const c = cols(entries);
      const result = await sql<{ balance: string | number | null; written: string[] | null }>`
        with owner as (
          select id from users where id = ${userId} and team_id = ${teamId}
        ), written as (
          insert into transactions (team_id, user_id, type, amount, name, count, free_parts, debt_change, idempotency_key, order_id, meta)
          select ${teamId}, owner.id, i.type, i.amount, i.name, i.count, i.free_parts, i.debt_change, i.key, i.order_id, i.meta::jsonb
          from owner, unnest(${c.keys}::text[], ${c.types}::text[], ${c.amounts}::bigint[], ${c.names}::text[],
                      ${c.counts}::int[], ${c.free}::int[], ${c.debts}::bigint[], ${c.orders}::text[], ${c.metas}::text[])
               as i(key, type, amount, name, count, free_parts, debt_change, order_id, meta)
          on conflict (user_id, idempotency_key) do nothing
          returning idempotency_key, amount
        ), moved as (
          update users set balance = balance + (select coalesce(sum(amount), 0) from written)
          where id = (select id from owner)
          returning balance
        )
        select (select balance from moved) as balance, (select array_agg(idempotency_key) from written) as written`.execute(
        db,
      );
      const row = result.rows[0];
      if (row.balance === null) return null;
      return { balance: Number(row.balance), written: row.written ?? [] };
    },

    /** Moves a balance without a ledger row: only to undo the part of a `post` whose rows were skipped. */
    async adjust(db: Kysely<DB>, userId: number, amount: number): Promise<number> {
      const row = await sql<{ balance: string }>`
        update users set balance = balance + ${amount}::bigint where id = ${userId} returning balance`.execute(db);
      return Number(row.rows[0].balance);
    },

    async balanceOf(db: Kysely<DB>, teamId: number, userId: number) {
      return db
        .selectFrom('users')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .select([
          'users.id',
          'users.role',
          'users.name',
          'users.balance',
          'users.balance_auto_refill',
          'users.balance_refill_from',
          'users.debt',
          'teams.balance_currency',
          'teams.default_country',
        ])
        .where('users.team_id', '=', teamId)
        .where('users.id', '=', userId)
        .executeTakeFirst();
    },

    async setAutoRefill(db: Kysely<DB>, teamId: number, userId: number, on: boolean, from: number) {
      await db
        .updateTable('users')
        .set({ balance_auto_refill: on, balance_refill_from: on ? from : null })
        .where('team_id', '=', teamId)
        .where('id', '=', userId)
        .execute();
    },

    freePartsQuery,

    /** Free SMS parts the team used since `since`. */
    async freePartsSince(db: Kysely<DB>, teamId: number, since: Date): Promise<number> {
      const row = await freePartsQuery(db, teamId, since).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /**
     * Locks users' rows in id order until the transaction ends: every statement that moves two
     * balances (a share, an auto-refill, a batch of several users) takes them this way first, so
     * two of them crossing between the same users queue instead of deadlocking. `withSharers`: the
     * users they are refilled from too. `no key update`, the lock a balance update takes anyway: a
     * transaction that wrote a row naming the user (a message's `user_id` takes a key-share lock)
     * must not have to upgrade its lock here, or two sends of one user wait on each other.
     */
    async lockUsers(db: Kysely<DB>, teamId: number, userIds: number[], withSharers = false) {
      await sql`select id from users
        where team_id = ${teamId} and (id = any(${userIds}::bigint[])
          or (${withSharers} and id in (select balance_refill_from from users
                where id = any(${userIds}::bigint[]) and balance_auto_refill)))
        order by id for no key update`.execute(db);
    },

    /** Serialises the team's free-SMS spending until the transaction ends. */
    async lockFreeSms(db: Kysely<DB>, teamId: number) {
      await sql`select pg_advisory_xact_lock(hashtext('herald.free_sms'), ${teamId}::int)`.execute(db);
    },

    /** Serialises the team's plan purchases until the transaction ends: a double submit buys once. */
    async lockPurchase(db: Kysely<DB>, teamId: number) {
      await sql`select pg_advisory_xact_lock(hashtext('herald.purchase'), ${teamId}::int)`.execute(db);
    },

    /** `since`: the plan's history window (null: all of it). */
    async findPage(db: Kysely<DB>, teamId: number, userId: number, page: PageWindow, since: Date | null = null) {
      const from = db
        .selectFrom('transactions')
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .$if(since !== null, (q) => q.where('created_at', '>=', since as Date));
      return findPage(
        from,
        (q) =>
          q.select([
            'id',
            'type',
            'amount',
            'name',
            'count',
            'free_parts',
            'debt_change',
            'order_id',
            'meta',
            'created_at',
          ]),
        page,
      );
    },

    async totals(db: Kysely<DB>, teamId: number, userId: number, since: Date | null = null) {
      const row = await sql<{ total: string; credited: string; debited: string }>`
        select count(*) as total,
               coalesce(sum(amount) filter (where amount >= 0), 0) as credited,
               coalesce(sum(amount) filter (where amount < 0), 0) as debited
        from transactions where team_id = ${teamId} and user_id = ${userId}
          and (${since}::timestamptz is null or created_at >= ${since}::timestamptz)`.execute(db);
      const r = row.rows[0];
      return { total: Number(r.total), credited: Number(r.credited), debited: Number(r.debited) };
    },

    /** The team owner, who gets the team's mails about money. */
    async ownerOf(db: Kysely<DB>, teamId: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'name'])
        .where('team_id', '=', teamId)
        .where('role', '=', 'team_owner')
        .orderBy('id')
        .executeTakeFirst();
    },
  };
}
export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
