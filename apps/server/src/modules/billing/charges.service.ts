import type { Kysely } from 'kysely';
import type { TTransactionCode } from '@herald/shared/billing/billing.schemas';
import type { ChargeRequest, ChargeResult } from '@herald/shared/billing/charges';
import type { DB } from '../../db/schema.ts';
import { coveredPrefix, priceOf } from './charge-math.ts';
import type { LedgerEntry, LedgerRepository } from './ledger.repository.ts';

export type { ChargeRequest, ChargeResult };

/** The free SMS of the team's plan in its current period (`total` null: unlimited); null: no plan. */
export type FreeSmsAllowance = (
  db: Kysely<DB>,
  teamId: number,
) => Promise<{ total: number | null; since: Date } | null>;

const SMS_CODES = new Set<TTransactionCode>(['sent_message', 'sent_single_message']);

/**
 * Charges: the one way money leaves a balance for sending and lookups. A batch is written per
 * user in one statement (`ledger.post`); a balance that does not cover the batch is refilled from
 * the sharer when the member has auto-refill, and otherwise the longest prefix it covers is charged.
 */
export function createChargesService({
  ledger,
  freeSms,
  onRefill,
}: {
  ledger: LedgerRepository;
  freeSms: FreeSmsAllowance;
  /** A member was refilled from their sharer (before the caller's commit; it announces after). */
  onRefill?: (teamId: number, userId: number) => void;
}) {
  async function freeRemaining(tx: Kysely<DB>, teamId: number): Promise<number> {
    const allowance = await freeSms(tx, teamId);
    if (!allowance || allowance.total === 0) return 0;
    if (allowance.total === null) return Number.POSITIVE_INFINITY;
    // Free SMS only ever get used up within a period: "none left" read without the lock stays true.
    if ((await ledger.freePartsSince(tx, teamId, allowance.since)) >= allowance.total) return 0;
    await ledger.lockFreeSms(tx, teamId);
    return Math.max(0, allowance.total - (await ledger.freePartsSince(tx, teamId, allowance.since)));
  }

  /** Moves `shortfall` from the sharer to the member (auto_share_balance on both); false when the sharer is short too. */
  async function autoRefill(tx: Kysely<DB>, teamId: number, userId: number, shortfall: number, tag: string) {
    const member = await ledger.balanceOf(tx, teamId, userId);
    if (!member?.balance_auto_refill || !member.balance_refill_from || shortfall <= 0) return false;
    const sharer = await ledger.balanceOf(tx, teamId, member.balance_refill_from);
    if (!sharer) return false;
    const key = `auto-refill:${userId}:${tag}`;
    await ledger.lockUsers(tx, teamId, [userId, sharer.id]);
    const debited = await ledger.post(tx, teamId, sharer.id, [
      { type: 'auto_share_balance', amount: -shortfall, key, name: member.name, meta: { member_id: userId } },
    ]);
    if (!debited || debited.written.length === 0) return false;
    await ledger.credit(tx, teamId, userId, [
      { type: 'auto_share_balance', amount: shortfall, key, name: sharer.name, meta: { sharer_id: sharer.id } },
    ]);
    onRefill?.(teamId, userId);
    return true;
  }

  async function chargeUser(
    tx: Kysely<DB>,
    teamId: number,
    userId: number,
    requests: ChargeRequest[],
    free: { remaining: number },
  ): Promise<{ results: ChargeResult[]; balance: number | null }> {
    const results = new Map<string, ChargeResult>();
    const replayed = (key: string, done: { amount: number; freeParts: number }) =>
      results.set(key, { key, status: 'charged', amount: -done.amount, freeParts: done.freeParts, replayed: true });
    let pending: Array<{ request: ChargeRequest; entry: LedgerEntry }> = [];
    const seen = new Set<string>();
    for (const request of requests) {
      if (seen.has(request.key)) continue;
      seen.add(request.key);
      const { amount, freeParts } = priceOf(request, free.remaining, SMS_CODES.has(request.code));
      free.remaining -= freeParts;
      if (!Number.isSafeInteger(amount) || amount < 0)
        throw new Error(`charge ${request.key}: amount must be minor units ≥ 0`);
      pending.push({
        request,
        entry: {
          type: request.code,
          amount: -amount,
          key: request.key,
          name: request.name,
          count: request.count ?? 1,
          freeParts,
          meta: request.meta,
        },
      });
    }

    // The common case first: one statement. Keys charged before (a retry) are skipped by its
    // insert and their share of the debit put back; only a short balance looks them up first.
    let balance: number | null = null;
    let lookedUp = false;
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
      const posted = await ledger.post(
        tx,
        teamId,
        userId,
        pending.map((p) => p.entry),
      );
      if (posted) {
        balance = posted.balance;
        const written = new Set(posted.written);
        const skipped = pending.filter((p) => !written.has(p.request.key));
        for (const { request, entry } of pending) {
          if (written.has(request.key))
            results.set(request.key, {
              key: request.key,
              status: 'charged',
              amount: -entry.amount,
              freeParts: entry.freeParts ?? 0,
              replayed: false,
            });
        }
        if (skipped.length > 0) {
          const prior = await ledger.existing(
            tx,
            userId,
            skipped.map((p) => p.request.key),
          );
          for (const { request } of skipped)
            replayed(request.key, prior.get(request.key) ?? { amount: 0, freeParts: 0 });
          balance = await ledger.adjust(tx, userId, -skipped.reduce((sum, p) => sum + p.entry.amount, 0));
        }
        pending = [];
        break;
      }
      if (!lookedUp) {
        lookedUp = true;
        const prior = await ledger.existing(
          tx,
          userId,
          pending.map((p) => p.request.key),
        );
        if (prior.size > 0) {
          for (const [key, done] of prior) replayed(key, done);
          pending = pending.filter((p) => !prior.has(p.request.key));
          continue;
        }
      }
      const need = -pending.reduce((sum, p) => sum + p.entry.amount, 0);
      const current = await ledger.balanceOf(tx, teamId, userId);
      if (!current) break;
      // A user who owes a reversed payment is charged nothing, free SMS included, until a top-up
      // pays the debt (decision 027): `post` refused for that, not for the balance.
      if (current.debt > 0) {
        for (const { request, entry } of pending) {
          results.set(request.key, {
            key: request.key,
            status: 'debt',
            amount: -entry.amount,
            freeParts: 0,
            replayed: false,
          });
          free.remaining += entry.freeParts ?? 0;
        }
        pending = [];
        balance = current.balance;
        break;
      }
      if (attempt <= 1 && (await autoRefill(tx, teamId, userId, need - current.balance, pending[0].request.key)))
        continue;
      // The longest prefix the balance covers now; the rest is answered insufficient.
      const fits = coveredPrefix(
        pending.map((p) => -p.entry.amount),
        current.balance,
      );
      for (const { request, entry } of pending.slice(fits)) {
        results.set(request.key, {
          key: request.key,
          status: 'insufficient',
          amount: -entry.amount,
          freeParts: 0,
          replayed: false,
        });
        // Free parts given to a message that is not sent go back to the team.
        free.remaining += entry.freeParts ?? 0;
      }
      balance = current.balance;
      pending = pending.slice(0, fits);
    }
    for (const { request, entry } of pending) {
      results.set(request.key, {
        key: request.key,
        status: 'insufficient',
        amount: -entry.amount,
        freeParts: 0,
        replayed: false,
      });
    }
    return { results: requests.map((r) => results.get(r.key) as ChargeResult), balance };
  }

  return {
    /**
     * Charges a batch inside the caller's transaction: per user one statement, free SMS first.
     * Answers each request's result in order and the balances after it; the caller announces
     * them (`announce`) once its transaction has committed.
     */
    async chargeMany(tx: Kysely<DB>, teamId: number, requests: ChargeRequest[]) {
      const byUser = new Map<number, ChargeRequest[]>();
      for (const r of requests) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r]);
      const needsFree = requests.some((r) => r.parts !== undefined && SMS_CODES.has(r.code));
      const free = { remaining: needsFree ? await freeRemaining(tx, teamId) : 0 };
      const results = new Map<string, ChargeResult>();
      const balances = new Map<number, number>();
      // The batch's users and whoever refills them are locked first, in id order, as shares lock
      // theirs. A refill mid-batch would otherwise lock a sharer after a user of a higher id: even a
      // refused debit keeps the lock on a row it waited for (PostgreSQL locks the newest version
      // before rechecking the condition), so crossing shares and refills deadlocked.
      await ledger.lockUsers(tx, teamId, [...byUser.keys()], true);
      for (const userId of [...byUser.keys()].sort((a, b) => a - b)) {
        const list = byUser.get(userId) as ChargeRequest[];
        const charged = await chargeUser(tx, teamId, userId, list, free);
        for (const [i, r] of charged.results.entries()) results.set(`${userId}\u0000${list[i].key}`, r);
        if (charged.balance !== null) balances.set(userId, charged.balance);
      }
      return {
        results: requests.map((r) => results.get(`${r.userId}\u0000${r.key}`) as ChargeResult),
        balances,
      };
    },
  };
}
export type ChargesService = ReturnType<typeof createChargesService>;
