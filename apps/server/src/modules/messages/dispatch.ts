import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { type Bucket, giveBackTokens, takeTokens, waitForTokens } from '../../jobs/rate-buckets.ts';
import { createDispatchCharges } from './dispatch-charges.ts';
import type { MessagesDeps, SendingAdapter } from './messages.deps.ts';
import type { MessageRow } from './messages.repository.ts';
import type { Outcome, SendRowsRepository } from './send-rows.repository.ts';
import { type CrashMoment, type EngineSettings, gatewayBuckets, outcomeOf, rowStatusUrl } from './send-rules.ts';
import type { StatusService } from './status.service.ts';

export type { CrashMoment, EngineSettings } from './send-rules.ts';

type Deps = MessagesDeps & { rows: SendRowsRepository; status: StatusService; settings: EngineSettings };

/**
 * The send path (decision 024): claim due rows in batches, charge them by their own keys (a
 * re-claim replays the charge), stamp `called_at` right before the calls, call, and settle the
 * answers in one statement. Every gateway's rate is a bucket in the database that every worker
 * shares. Nothing here sleeps between retries: a row not taken is due again at its `not_before`.
 */
export function createDispatcher(deps: Deps) {
  const { db, rows, settings } = deps;
  const { pricesOf, charge } = createDispatchCharges(deps);
  const crash = async (moment: CrashMoment, list: MessageRow[]) => {
    if (!deps.beforeGatewayCall) return;
    for (const row of list) await deps.beforeGatewayCall({ ...row, moment });
  };
  /** Gateways that could not be opened are left alone a while (their rows wait). */
  const resting = new Map<string, number>();

  /** Gives back the charge of rows that end without a send, in the caller's transaction. */
  async function refund(tx: Kysely<DB>, list: MessageRow[], reason: string) {
    if (!deps.refund || list.length === 0) return;
    const done: number[] = [];
    for (const row of list) {
      if (row.refunded_at !== null) continue;
      // A payer who left the team has no balance to give back to: the row is settled all the same.
      if (row.user_id !== null)
        await deps.refund(tx, Number(row.team_id), { userId: Number(row.user_id), chargeKey: row.charge_key, reason });
      done.push(Number(row.id));
    }
    await rows.markRefunded(tx, done);
  }

  /** Live events per message only for single SMS (a campaign publishes its own summaries). */
  async function publishSingles(list: MessageRow[]) {
    for (const row of list) if (row.kind === 'single') await deps.status.published(Number(row.team_id), row);
  }

  /** Writes the outcomes; failed rows refunded in the same transaction; 429s give their tokens back. */
  async function settle(outcomes: Outcome[], claimed: Map<number, MessageRow>, buckets: Bucket[]) {
    const held = outcomes.map((o) => ({ ...o, attempt: o.attempt ?? claimed.get(o.id)?.attempt }));
    // A 429's tokens go back first: by the time its row is due again, they are in the bucket.
    const limited = outcomes.filter((o) => o.state === 'pending' && o.rateLimited);
    const parts = limited.reduce((n, o) => n + (claimed.get(o.id)?.parts || 1), 0);
    if (parts > 0)
      await giveBackTokens(
        db,
        buckets.map((b) => b.key),
        parts,
      );
    // One statement when nothing failed; a failure's refund shares the settle's transaction.
    const settled = held.some((o) => o.state === 'failed')
      ? await db.transaction().execute(async (tx) => {
          const written = await rows.settleMany(tx, held);
          await refund(
            tx,
            written.filter((r) => r.state === 'failed'),
            'not_sent',
          );
          return written;
        })
      : await rows.settleMany(db, held);
    // Reports that arrived before their row settled, kept meanwhile, are applied now.
    const kept = settled.filter((r) => r.has_kept && r.state !== 'pending');
    for (const teamId of new Set(kept.map((r) => Number(r.team_id))))
      await deps.status.applyKept(
        teamId,
        kept.filter((r) => Number(r.team_id) === teamId).map((r) => Number(r.id)),
      );
    const refunded = [...new Set(settled.filter((r) => r.state === 'failed').map((r) => Number(r.team_id)))];
    for (const teamId of refunded) {
      const users = settled.filter((r) => Number(r.team_id) === teamId && r.user_id !== null);
      await deps.announce(teamId, [...new Set(users.map((r) => Number(r.user_id)))]);
    }
    return settled;
  }

  async function call(row: MessageRow, adapter: SendingAdapter, statusBase: string): Promise<Outcome> {
    try {
      const result = await adapter.send({
        to: row.phone,
        from: row.sender,
        text: row.text,
        statusCallbackUrl: rowStatusUrl(statusBase, Number(row.id)),
        idempotencyKey: `msg-${row.id}`,
      });
      return {
        id: Number(row.id),
        state: 'submitted',
        providerMessageId: result.providerMessageId,
        status: result.status,
      };
    } catch (error) {
      return outcomeOf(row, error, adapter);
    }
  }

  /** One batch of one gateway: take tokens, claim and charge, call in windows, settle. */
  async function dispatchGateway(
    teamId: number,
    gatewayId: number,
    lane: number,
  ): Promise<{ sent: number; waitMs: number }> {
    const restKey = `${teamId}:${gatewayId}`;
    if ((resting.get(restKey) ?? 0) > Date.now()) return { sent: 0, waitMs: settings.idleMs };
    let chosen: Awaited<ReturnType<Deps['gateways']['adapter']>>;
    try {
      chosen = await deps.gateways.adapter(teamId, gatewayId);
    } catch {
      resting.set(restKey, Date.now() + 30_000);
      return { sent: 0, waitMs: settings.idleMs };
    }
    const { gateway, adapter } = chosen;
    const buckets = gatewayBuckets(gateway, adapter, settings.rates);
    const keys = buckets.map((b) => b.key);
    // Half a second's worth at a time: a batch of one per take would spend the rate on round trips.
    const slowest = Math.min(...buckets.map((b) => b.rate));
    // A rate one lane keeps up with is left to the first: more would only pass tokens back and forth.
    if (lane > 0 && buckets.length > 0 && slowest < settings.batch * 2) return { sent: 0, waitMs: settings.idleMs };
    const want = buckets.length > 0 ? Math.min(settings.batch, Math.max(1, Math.ceil(slowest / 2))) : settings.batch;
    const taken = buckets.length > 0 ? await takeTokens(db, buckets, want) : { granted: want, waitMs: 0 };
    if (taken.granted < Math.ceil(want / 2)) {
      await giveBackTokens(db, keys, taken.granted);
      return { sent: 0, waitMs: taken.waitMs };
    }

    const claimed = await db.transaction().execute(async (tx) => {
      const list = await rows.claim(tx, teamId, gatewayId, taken.granted, settings.leaseMs);
      // A throw here (a crash) rolls the claim back: the rows stay pending.
      await crash('claim', list);
      // Whoever opted out or left since the row was queued is skipped now, at send time; a row
      // claimed before (a crash) may hold a charge, which goes back.
      const left = await rows.failLeft(
        tx,
        list.map((r) => Number(r.id)),
      );
      await refund(
        tx,
        left.filter((r) => r.attempt > 1),
        'not_sent',
      );
      const gone = new Set(left.map((r) => Number(r.id)));
      return list.filter((r) => !gone.has(Number(r.id)));
    });
    // Prices are read outside the charge's transaction (the embedded database has one connection).
    const prices = await pricesOf(teamId, claimed);
    const { ok } = await db.transaction().execute((tx) => charge(tx, teamId, claimed, prices));
    const users = [...new Set(ok.map((r) => Number(r.user_id)))];
    if (users.length > 0) await deps.announce(teamId, users);
    await crash('claimed', ok);

    // Tokens are SMS parts: what the claim did not use goes back, a long message waits for more.
    const need = ok.reduce((n, r) => n + Math.max(1, r.parts), 0);
    if (buckets.length > 0 && taken.granted > need) await giveBackTokens(db, keys, taken.granted - need);
    if (buckets.length > 0 && need > taken.granted) {
      const got = await waitForTokens(db, buckets, need - taken.granted, Date.now() + settings.leaseMs / 2);
      if (!got) {
        for (const row of ok) await rows.release({ id: Number(row.id), attempt: row.attempt });
        return { sent: 0, waitMs: settings.idleMs };
      }
    }

    const statusBase = gateway.webhook_urls.status ?? deps.statusUrl(gateway.id);
    const byId = new Map(ok.map((r) => [Number(r.id), r]));
    let sent = 0;
    for (let i = 0; i < ok.length; i += settings.concurrency) {
      const window = ok.slice(i, i + settings.concurrency);
      const live = await rows.markCalled(
        window.map((r) => ({ id: Number(r.id), attempt: r.attempt })),
        settings.leaseMs,
      );
      const going = window.filter((r) => live.has(Number(r.id)));
      await crash('called', going);
      const outcomes = await Promise.all(going.map((row) => call(row, adapter, statusBase)));
      await crash('answered', going);
      const settled = await settle(outcomes, byId, buckets);
      await publishSingles(settled);
      if (adapter.capabilities.statusDelivery === 'poll')
        for (const row of settled)
          if (row.state === 'submitted') await deps.status.schedulePoll(teamId, Number(row.id), 0);
      sent += going.length;
    }
    return { sent, waitMs: 0 };
  }

  /**
   * One pass over every gateway with due rows: a batch each. Answers how many calls were made and,
   * when none, how long until a bucket refills. `lane`: which of the process's loops asks (lanes
   * after the first take only gateways fast enough to need them).
   */
  async function dispatchDue(lane = 0): Promise<{ sent: number; waitMs: number }> {
    const due = await rows.dueGateways();
    let sent = 0;
    let waitMs = settings.idleMs;
    for (const { teamId, gatewayId } of due) {
      if (gatewayId === null) {
        // The gateway was deleted under its queued rows: they end, refunded.
        await db.transaction().execute(async (tx) => refund(tx, await rows.failOrphans(tx, teamId, 1_000), 'not_sent'));
        continue;
      }
      const done = await dispatchGateway(teamId, gatewayId, lane);
      sent += done.sent;
      if (done.sent === 0 && done.waitMs > 0) waitMs = Math.min(waitMs, done.waitMs);
    }
    return { sent, waitMs };
  }

  /**
   * A single SMS, claimed and charged in its request: it waits its turn in the gateway's bucket
   * (up to a third of its lease, then it is queued for the dispatch instead), is stamped called,
   * sent once and settled. Answers the row as it ended.
   */
  async function sendOne(row: MessageRow, gateway: TGateway, adapter: SendingAdapter): Promise<MessageRow> {
    const teamId = Number(row.team_id);
    const buckets = gatewayBuckets(gateway, adapter, settings.rates);
    if (buckets.length > 0) {
      const turn = await waitForTokens(db, buckets, Math.max(1, row.parts), Date.now() + settings.leaseMs / 3);
      if (!turn) return (await rows.release({ id: Number(row.id), attempt: row.attempt })) ?? row;
    }
    const live = await rows.markCalled([{ id: Number(row.id), attempt: row.attempt }], settings.leaseMs);
    if (!live.has(Number(row.id))) return row;
    await crash('called', [row]);
    const outcome = await call(row, adapter, gateway.webhook_urls.status ?? deps.statusUrl(gateway.id));
    await crash('answered', [row]);
    const written = outcome.state === 'submitted' ? { ...outcome, status: null } : outcome;
    const [settled] = await settle([written], new Map([[Number(row.id), row]]), buckets);
    if (!settled) return row;
    if (outcome.state === 'submitted' && outcome.status) {
      // The provider's first status, through the report path (Timeline entry, live event).
      await deps.status.apply(teamId, Number(row.gateway_id), [
        {
          providerMessageId: outcome.providerMessageId,
          status: outcome.status,
          providerStatus: outcome.status,
          errorCode: null,
          at: new Date(),
        },
      ]);
      if (adapter.capabilities.statusDelivery === 'poll') await deps.status.schedulePoll(teamId, Number(row.id), 0);
    } else await deps.status.published(teamId, settled);
    return (await deps.db.selectFrom('messages').selectAll().where('id', '=', row.id).executeTakeFirst()) ?? settled;
  }

  return { dispatchDue, sendOne, refund, publishSingles, settle };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
