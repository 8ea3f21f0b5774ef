import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Work rows claimed in batches by any number of workers (decision 024). A table of work rows keeps
 * the columns `id`, `state` ('pending' → 'claimed' → its own end states), `lease_until`,
 * `not_before`, `attempt` and `updated_at`; policy `unknown` also `called_at`.
 */
export interface ClaimTable {
  table: 'messages' | 'lookup_items';
}

/**
 * Claims up to `limit` due pending rows matching `filter`, oldest due first. `skip locked`: rows
 * another worker is claiming are passed over, never waited for, so workers share a queue without
 * taking the same row. Each row gets its own lease; `attempt` counts its claims.
 */
export async function claimDue<Row>(
  db: Kysely<DB>,
  spec: ClaimTable & { filter: RawBuilder<unknown>; limit: number; leaseMs: number },
): Promise<Row[]> {
  if (spec.limit <= 0) return [];
  const t = sql.table(spec.table);
  const rows = await sql<Row>`
    update ${t} set state = 'claimed', attempt = attempt + 1, updated_at = now(),
      lease_until = now() + ${spec.leaseMs}::int * interval '1 millisecond'
    where id in (
      select id from ${t}
      where state = 'pending' and not_before <= now() and ${spec.filter}
      order by not_before, id limit ${spec.limit}::int
      for update skip locked
    )
    returning *`.execute(db);
  return rows.rows;
}

/**
 * Claims whose lease ran out (their worker died or stalled). Policy `requeue`: back to pending (a
 * repeated read is harmless). Policy `unknown`: a row whose call had not begun (`called_at` null)
 * goes back to pending; one whose call had begun becomes `unknown`, for the owner to reconcile.
 */
export async function expireLeases<Row>(
  db: Kysely<DB>,
  spec: ClaimTable & { policy: 'requeue' | 'unknown'; limit?: number },
): Promise<Row[]> {
  const t = sql.table(spec.table);
  const next =
    spec.policy === 'requeue' ? sql`'pending'` : sql`case when called_at is null then 'pending' else 'unknown' end`;
  const rows = await sql<Row>`
    update ${t} set state = ${next}, lease_until = null, updated_at = now(), not_before = now()
    where id in (
      select id from ${t} where state = 'claimed' and lease_until < now()
      order by lease_until limit ${spec.limit ?? 10_000}::int
      for update skip locked
    )
    returning *`.execute(db);
  return rows.rows;
}
