import { type Kysely, sql } from 'kysely';
import type { RefundRequest } from '@herald/shared/billing/charges';
import type { DB } from '../../db/schema.ts';
import type { NormalizedLookup } from './lookup-normalize.ts';

type Db = Kysely<DB>;
interface Item {
  id: number;
  phone: string;
  charge_key: string | null;
  attempt: number;
}
export type Outcome =
  | { kind: 'ok'; item: Item; result: NormalizedLookup }
  | { kind: 'failed'; item: Item; error: string; auth: boolean }
  | { kind: 'unstarted'; item: Item };

/**
 * Writes what one batch's calls came to, in one transaction (decision 040). Only rows this worker
 * still holds (claimed, at the attempt it claimed) are written: a row whose lease ran out and that
 * another worker took is that worker's to count, so a result and its cost are counted once.
 * - answered: the team's result (newest wins), the row done, the lookup's counters;
 * - failed at the provider: its charge refunded and the key cleared (the retry is charged anew,
 *   once), back to pending after a backoff, or `failed` after `maxAttempts`; an auth failure is
 *   not the phone's fault and never uses up its attempts;
 * - not called (a pause): back to pending with its charge kept, replayed when it is claimed again.
 */
export async function writeOutcomes(
  db: Db,
  a: {
    lookup: { id: number; teamId: number; gatewayId: number; payer: number };
    price: number;
    outcomes: Outcome[];
    refund: (tx: Db, teamId: number, request: RefundRequest) => Promise<unknown>;
    maxAttempts: number;
    /** A failed phone waits `retryMs` × attempt² before it is tried again (5 s, 20 s, 45 s, … by default). */
    retryMs: number;
  },
): Promise<{ settled: number; refunded: boolean; phones: string[] }> {
  const { lookup } = a;
  const ok = a.outcomes.filter((o) => o.kind === 'ok');
  const failed = a.outcomes.filter((o) => o.kind === 'failed');
  const unstarted = a.outcomes.filter((o) => o.kind === 'unstarted');
  return db.transaction().execute(async (tx) => {
    const held = async (ids: number[], attempts: number[]) => {
      if (ids.length === 0) return new Set<number>();
      const r = await sql<{ id: string }>`select i.id from lookup_items i
        join unnest(${ids}::bigint[], ${attempts}::int[]) as v(id, attempt) on v.id = i.id
        where i.state = 'claimed' and i.attempt = v.attempt
        for update of i`.execute(tx);
      return new Set(r.rows.map((x) => Number(x.id)));
    };
    const mine = await held(
      a.outcomes.map((o) => o.item.id),
      a.outcomes.map((o) => o.item.attempt),
    );
    const okMine = ok.filter((o) => mine.has(o.item.id));
    let refunded = false;
    if (okMine.length > 0) {
      const col = <K extends keyof NormalizedLookup>(k: K) => okMine.map((o) => o.result[k]);
      const cost = a.price > 0 ? a.price : 0;
      await sql`insert into phone_lookups (team_id, phone, carrier_name, mcc_mnc, carrier_type, status_label,
          reachability, ported, checked_at, gateway_id, lookup_id, origin, cost)
        select ${lookup.teamId}, v.phone, v.carrier_name, v.mcc_mnc, v.carrier_type, v.status_label, v.reachability,
          v.ported, now(), ${lookup.gatewayId}, ${lookup.id}, 'lookup', ${cost}
        from unnest(${okMine.map((o) => o.item.phone)}::text[], ${col('carrier_name')}::text[], ${col('mcc_mnc')}::text[],
          ${col('carrier_type')}::text[], ${col('status_label')}::text[], ${col('reachability')}::text[],
          ${col('ported')}::boolean[]) as v(phone, carrier_name, mcc_mnc, carrier_type, status_label, reachability, ported)
        on conflict (team_id, phone) do update set carrier_name = excluded.carrier_name, mcc_mnc = excluded.mcc_mnc,
          carrier_type = excluded.carrier_type, status_label = excluded.status_label,
          reachability = excluded.reachability, ported = excluded.ported, checked_at = excluded.checked_at,
          gateway_id = excluded.gateway_id, lookup_id = excluded.lookup_id, origin = 'lookup', cost = excluded.cost`.execute(
        tx,
      );
      await sql`update lookup_items set state = 'done', lease_until = null, error = null, updated_at = now()
        where id = any(${okMine.map((o) => o.item.id)}::bigint[])`.execute(tx);
    }
    let finalFailures = 0;
    for (const o of failed) {
      if (!mine.has(o.item.id)) continue;
      if (o.item.charge_key) {
        await a.refund(tx, lookup.teamId, {
          userId: lookup.payer,
          chargeKey: o.item.charge_key,
          reason: 'lookup_failed',
        });
        refunded = true;
      }
      const last = !o.auth && o.item.attempt >= a.maxAttempts;
      if (last) finalFailures++;
      await sql`update lookup_items set state = ${last ? 'failed' : 'pending'}, lease_until = null,
          charge_key = null, refunds = refunds + ${o.item.charge_key ? 1 : 0}, error = ${o.error.slice(0, 500)},
          attempt = attempt - ${o.auth ? 1 : 0},
          not_before = now() + ${a.retryMs * o.item.attempt * o.item.attempt}::int * interval '1 millisecond', updated_at = now()
        where id = ${o.item.id}`.execute(tx);
    }
    const back = unstarted.filter((o) => mine.has(o.item.id)).map((o) => o.item.id);
    if (back.length > 0)
      await sql`update lookup_items set state = 'pending', lease_until = null, attempt = attempt - 1, updated_at = now()
        where id = any(${back}::bigint[])`.execute(tx);
    if (okMine.length > 0 || finalFailures > 0)
      await sql`update lookups set looked_up = looked_up + ${okMine.length}, failed = failed + ${finalFailures},
          cost = cost + ${okMine.length * Math.max(0, a.price)}::bigint, updated_at = now()
        where id = ${lookup.id}`.execute(tx);
    return { settled: okMine.length + finalFailures, refunded, phones: okMine.map((o) => o.item.phone) };
  });
}
