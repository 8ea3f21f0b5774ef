import { type Kysely, sql } from 'kysely';
import type { ChargeRequest, ChargeResult, RefundRequest } from '@herald/shared/billing/charges';
import { encodeMessage } from '@herald/shared/common/messages';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { DB } from '../../db/schema.ts';
import { giveBackTokens, takeTokens } from '../../jobs/rate-buckets.ts';
import { claimDue, expireLeases } from '../../jobs/work-claims.ts';
import type { LookupGateway } from './lookup-gateway.ts';
import { type NormalizedLookup, normalizeLookup } from './lookup-normalize.ts';
import { writeOutcomes } from './lookup-outcomes.ts';
import { cachedPrice, createPace, throttledAnnounce } from './lookup-pace.ts';

type Db = Kysely<DB>;

export interface LookupEngineDeps {
  db: Db;
  /** The lookup's gateway and adapter, when it may still look up (active, allow_lookup, a type with lookup). */
  gatewayOf: (teamId: number, gatewayId: number | null) => Promise<LookupGateway | null>;
  /** One lookup's price for the payer, minor units. */
  priceOf: (teamId: number, userId: number) => Promise<number>;
  chargeMany: (tx: Db, teamId: number, requests: ChargeRequest[]) => Promise<{ results: ChargeResult[] }>;
  refund: (tx: Db, teamId: number, request: RefundRequest) => Promise<unknown>;
  announce: (teamId: number, userIds: number[], options?: { raised?: boolean }) => Promise<void>;
  live: { changed(ids: number[]): Promise<void>; progress(ids: number[]): Promise<void> };
  onResults?: (teamId: number, phones: string[]) => Promise<void>;
  log?: { error(obj: unknown, msg: string): void };
  tickMs?: number;
  /** Claims a lookup runs side by side in one process (each a batch of `batch`). */
  lanes?: number;
  batch?: number;
  /** Provider calls in flight per lane. */
  concurrency?: number;
  leaseMs?: number;
  /** A failed phone's first wait before it is tried again (growing with the square of its attempts). */
  retryMs?: number;
}

interface Running {
  id: number;
  team_id: number;
  gateway_id: number | null;
  launched_by: number | null;
  status: number;
}

/** Provider failures before a phone is given up (each refunded). */
export const MAX_LOOKUP_ATTEMPTS = 5;

/**
 * The lookup engine (decision 040): on every worker process, each running lookup's pending phones
 * are claimed in batches with a lease (any number of workers share a lookup; a dead worker's
 * claims run out and go back), drawn against the gateway's rate in the database (`lookup:<id>`),
 * charged once per phone (the key is kept on the row, so a re-claimed phone replays its charge),
 * looked up concurrently, and written with their results in one transaction per batch. A provider
 * failure is refunded and retried later; the balance running out pauses the lookup; a pause
 * stops new calls within a tick.
 */
export function createLookupEngine(deps: LookupEngineDeps) {
  const { db } = deps;
  const tickMs = deps.tickMs ?? 250;
  const lanes = deps.lanes ?? 4;
  const batch = deps.batch ?? 200;
  const concurrency = deps.concurrency ?? 32;
  // Long enough for a batch's charge, calls and write on a loaded machine (a claim that runs out
  // while its calls are under way has them made again by another worker), short enough that a dead
  // worker's phones come back soon.
  const leaseMs = deps.leaseMs ?? 10_000;
  /** Lanes running per lookup in this process. */
  const active = new Map<number, number>();
  /** The status each running lookup had at the last tick: a lane stops calling when it is not 1. */
  const status = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let ticking = false;

  const report = (err: unknown, msg: string) => deps.log?.error({ err }, msg);

  const announce = throttledAnnounce(deps.announce, report);
  const priceOf = cachedPrice(deps.priceOf);
  const pace = createPace();

  /** Lookups this process paused for money: no new batch, while the phones already paid for are still looked up. */
  const short = new Set<number>();

  async function pause(l: Running, reason: string, soft = false) {
    const r =
      await sql`update lookups set status = 2, paused_reason = ${reason}, rate_per_sec = null, updated_at = now()
      where id = ${l.id} and status = 1`.execute(db);
    if (soft) short.add(l.id);
    else status.set(l.id, 2);
    if (Number(r.numAffectedRows ?? 0) > 0) await deps.live.changed([l.id]);
  }

  /** One batch of a lookup: false when nothing was due. */
  async function runBatch(l: Running): Promise<boolean> {
    if (status.get(l.id) !== 1 || short.has(l.id) || stopped) return false;
    const gateway = await deps.gatewayOf(l.team_id, l.gateway_id);
    if (!gateway || l.launched_by === null) {
      await pause(l, encodeMessage({ code: 'lookup_gateway_missing' }));
      return false;
    }
    let want = batch;
    const bucket = gateway.rate ? [{ key: `lookup:${gateway.id}`, rate: gateway.rate, burst: gateway.rate }] : [];
    if (bucket.length > 0) {
      const taken = await takeTokens(db, bucket, want);
      if (taken.granted === 0) {
        await new Promise((r) => setTimeout(r, Math.min(1_000, Math.max(10, taken.waitMs))));
        return true;
      }
      want = taken.granted;
    }
    const claimed = await claimDue<{
      id: string;
      phone: string;
      charge_key: string | null;
      refunds: number;
      attempt: number;
    }>(db, { table: 'lookup_items', filter: sql`lookup_id = ${l.id}`, limit: want, leaseMs });
    if (bucket.length > 0 && claimed.length < want) await giveBackTokens(db, [bucket[0].key], want - claimed.length);
    if (claimed.length === 0) return false;
    const items = claimed.map((c) => ({ ...c, id: Number(c.id) }));
    const payer = l.launched_by;

    // Charge the phones not charged yet; the key stays on the row with the charge.
    const price = await priceOf(l.team_id, payer);
    let unpaidLeft = false;
    if (price > 0) {
      const fresh = items.filter((i) => i.charge_key === null);
      const keys = new Map(fresh.map((i) => [i.id, `lookup:${l.id}:${i.id}:${i.refunds}`]));
      await db.transaction().execute(async (tx) => {
        const { results } = await deps.chargeMany(
          tx,
          l.team_id,
          fresh.map((i) => ({
            userId: payer,
            code: 'lookup' as const,
            amount: price,
            key: keys.get(i.id) as string,
            name: i.phone,
            meta: { lookup_id: l.id },
          })),
        );
        const ok = new Set(results.filter((r) => r.status === 'charged').map((r) => r.key));
        const paid = fresh.filter((i) => ok.has(keys.get(i.id) as string));
        const unpaid = fresh.filter((i) => !ok.has(keys.get(i.id) as string));
        for (const i of paid) i.charge_key = keys.get(i.id) as string;
        if (paid.length > 0)
          await sql`update lookup_items i set charge_key = v.key from unnest(${paid.map((i) => i.id)}::bigint[],
            ${paid.map((i) => i.charge_key)}::text[]) as v(id, key) where i.id = v.id`.execute(tx);
        if (unpaid.length > 0) {
          unpaidLeft = true;
          await sql`update lookup_items set state = 'pending', lease_until = null, updated_at = now()
            where id = any(${unpaid.map((i) => i.id)}::bigint[]) and state = 'claimed'`.execute(tx);
        }
      });
      announce(l.team_id, payer);
    }
    const callable = items.filter((i) => price <= 0 || i.charge_key !== null);
    // The lease runs from now on: a charge that waited for the payer's row (other lanes charging) must
    // not leave the calls too little time, or another worker would take the phones and ask again.
    if (callable.length > 0)
      await sql`update lookup_items set lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
        where id = any(${callable.map((i) => i.id)}::bigint[]) and state = 'claimed'`.execute(db);

    // Concurrent provider calls; a pause stops new ones, and what was not called goes back as it is.
    const outcomes: Array<
      | { kind: 'ok'; item: (typeof items)[number]; result: NormalizedLookup }
      | { kind: 'failed'; item: (typeof items)[number]; error: string; auth: boolean }
      | { kind: 'unstarted'; item: (typeof items)[number] }
    > = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const item = callable[next++];
        if (!item) return;
        if (status.get(l.id) !== 1 || stopped) {
          outcomes.push({ kind: 'unstarted', item });
          continue;
        }
        try {
          const answer = await gateway.lookup(item.phone);
          outcomes.push({ kind: 'ok', item, result: normalizeLookup(gateway.type, answer) });
        } catch (err) {
          // A `GatewaySendError` whose reason is `auth`: the credentials, not the phone.
          const auth = (err as { reason?: unknown } | null)?.reason === 'auth';
          outcomes.push({ kind: 'failed', item, error: err instanceof Error ? err.message : String(err), auth });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, callable.length) }, worker));

    const written = await writeOutcomes(db, {
      lookup: { id: l.id, teamId: l.team_id, gatewayId: gateway.id, payer },
      price,
      outcomes,
      refund: deps.refund,
      maxAttempts: MAX_LOOKUP_ATTEMPTS,
      retryMs: deps.retryMs ?? 5_000,
    });
    pace.measure(l.id, written.settled);
    if (written.refunded) announce(l.team_id, payer, true);
    if (written.phones.length > 0 && deps.onResults)
      await deps.onResults(l.team_id, written.phones).catch((err) => report(err, 'lookups: a results listener failed'));
    // The phones paid for are looked up first; then the lookup waits for money.
    if (unpaidLeft) await pause(l, encodeMessage({ code: 'balance_not_enough_lookup' }), true);
    if (outcomes.some((o) => o.kind === 'failed' && o.auth))
      await pause(l, encodeMessage({ code: 'gateway_auth_failed' }));
    return true;
  }

  async function lane(l: Running) {
    active.set(l.id, (active.get(l.id) ?? 0) + 1);
    try {
      while (await runBatch(l));
    } catch (err) {
      report(err, `lookups: lookup ${l.id} lane failed`);
    } finally {
      const left = (active.get(l.id) ?? 1) - 1;
      if (left <= 0) active.delete(l.id);
      else active.set(l.id, left);
    }
    if (!active.has(l.id) && status.get(l.id) === 1)
      await complete(l.id).catch((err) => report(err, 'lookups: completion'));
  }

  /**
   * Completed when no phone is left to look up (retries waiting their turn keep it running). The
   * team's data version moves with it, so the sources' percentages and the lead pages, cached by
   * that version, show the results at once rather than within five minutes.
   */
  async function complete(id: number) {
    const r = await sql`with done as (update lookups set status = 3, completed_at = now(), rate_per_sec = null,
          paused_reason = null, updated_at = now()
        where id = ${id} and status = 1
          and not exists (select 1 from lookup_items where lookup_id = ${id} and state in ('pending', 'claimed'))
        returning team_id)
      update teams set data_version = data_version + 1 where id in (select team_id from done)`.execute(db);
    if (Number(r.numAffectedRows ?? 0) > 0) {
      status.set(id, 3);
      pace.forget(id);
      await deps.live.changed([id]);
    }
  }

  async function tick() {
    if (ticking || stopped) return;
    ticking = true;
    try {
      await expireLeases(db, { table: 'lookup_items', policy: 'requeue' });
      const rows = await sql<Running>`select id, team_id, gateway_id, launched_by, status from lookups
        where status = 1 order by id limit 100`.execute(db);
      const running = rows.rows.map((r) => ({
        id: Number(r.id),
        team_id: Number(r.team_id),
        gateway_id: r.gateway_id === null ? null : Number(r.gateway_id),
        launched_by: r.launched_by === null ? null : Number(r.launched_by),
        status: Number(r.status),
      }));
      const ids = new Set(running.map((r) => r.id));
      for (const id of status.keys()) if (!ids.has(id)) status.set(id, 0);
      for (const l of running) status.set(l.id, 1);
      // Completion is checked here too, not only when a process's last lane ends: under a slow rate
      // the tick starts new lanes (each waiting for a token) before the old ones end, so "no lane
      // left" may never come. The check is one guarded statement: phones still pending or claimed
      // (calls in flight) keep the lookup running.
      for (const l of running) await complete(l.id);
      for (const l of running)
        if (status.get(l.id) === 1) for (let n = active.get(l.id) ?? 0; n < lanes; n++) void lane(l);
      // The measured pace, for time_left (rounded, so an unchanged pace writes nothing).
      for (const l of running) {
        const rate = pace.rateOf(l.id);
        if (rate !== null)
          await sql`update lookups set rate_per_sec = ${Math.round(rate * 10) / 10}
            where id = ${l.id} and rate_per_sec is distinct from ${Math.round(rate * 10) / 10}`.execute(db);
      }
      await deps.live.progress([...ids]);
    } catch (err) {
      report(err, 'lookups: engine tick failed');
    } finally {
      ticking = false;
    }
  }

  return {
    start() {
      if (timer) return;
      // Bulk work: on the embedded database a person's requests go first (decision 013); the lanes
      // a tick starts inherit it.
      timer = setInterval(() => void runAsBulk(() => tick()), tickMs);
      timer.unref();
    },
    tick,
    /** A user's move: heard by the lanes of this process at once, not at the next tick. */
    moved(id: number, to: number) {
      status.set(id, to);
      short.delete(id);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      for (let i = 0; i < 200 && active.size > 0; i++) await new Promise((r) => setTimeout(r, 25));
    },
  };
}

export type LookupEngine = ReturnType<typeof createLookupEngine>;
