import { type Kysely, sql } from 'kysely';
import { DEFAULT_LOOKUP_FRESH_DAYS, type TLookupStatusCode } from '@herald/shared/lookups/lookups.schemas';
import type { DB } from '../../db/schema.ts';
import { fillFromList } from './lookup-fill.ts';
import type { LookupGateways } from './lookup-gateway.ts';

type Db = Kysely<DB>;

export interface MovesDeps {
  db: Db;
  gateways: LookupGateways;
  /** One lookup's price for this user (minor units) and their balance. */
  money: (teamId: number, userId: number) => Promise<{ price: number; balance: number; currency: string }>;
  /** This process's engine hears a move at once (other processes at their next tick). */
  moved: (id: number, to: TLookupStatusCode) => void;
  refund: (tx: Db, teamId: number, request: { userId: number; chargeKey: string; reason: string }) => Promise<unknown>;
  announce: (teamId: number, userIds: number[], options?: { raised?: boolean }) => Promise<void>;
}

export async function freshDays(db: Db, teamId: number): Promise<number> {
  const row = await db.selectFrom('teams').select('lookup_fresh_days').where('id', '=', teamId).executeTakeFirst();
  return row?.lookup_fresh_days ?? DEFAULT_LOOKUP_FRESH_DAYS;
}

/**
 * The moves of a lookup (spec 4, decision 040): start from pending or paused, stop (pause) from
 * running. A start takes the team's lookup gateway when none is set, adds the list's phones added
 * since (a list lookup), and checks the starter's balance covers one lookup: without a gateway it
 * stays where it is with `lookup_gateway_missing`, without money it is paused with
 * `balance_not_enough_lookup` — the same reason the engine pauses with when the money runs out.
 */
export function createLookupMoves(deps: MovesDeps) {
  const { db } = deps;

  /** A list lookup's phones, those added to the list since included (a rerun adds only them). */
  async function fill(teamId: number, id: number, listId: number, price: number) {
    const days = await freshDays(db, teamId);
    await db.transaction().execute((tx) => fillFromList(tx, { lookupId: id, teamId, listId, freshDays: days, price }));
  }

  async function start(teamId: number, userId: number, id: number): Promise<'started' | 'refused'> {
    const row = await db
      .selectFrom('lookups')
      .select(['id', 'status', 'gateway_id', 'list_id', 'type'])
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.status !== 0 && row.status !== 2)) return 'refused';
    const money = await deps.money(teamId, userId);
    if (row.type === 'list' && row.list_id !== null) await fill(teamId, id, Number(row.list_id), money.price);
    let gatewayId = row.gateway_id === null ? null : Number(row.gateway_id);
    if (gatewayId === null || !(await deps.gateways.usable(teamId, gatewayId)))
      gatewayId = await deps.gateways.defaultFor(teamId);
    const refuse = async (reason: string, status: TLookupStatusCode) => {
      await db
        .updateTable('lookups')
        .set({ paused_reason: reason, status, gateway_id: gatewayId, updated_at: new Date() })
        .where('id', '=', id)
        .where('status', 'in', [0, 2])
        .execute();
      return 'refused' as const;
    };
    if (gatewayId === null) return refuse('lookup_gateway_missing', Number(row.status) as TLookupStatusCode);
    const left = await sql<{ n: string }>`select count(*) as n from lookup_items
      where lookup_id = ${id} and state in ('pending', 'claimed')`.execute(db);
    if (money.price > 0 && money.balance < money.price && Number(left.rows[0]?.n ?? 0) > 0)
      return refuse('balance_not_enough_lookup', 2);
    const moved = await db
      .updateTable('lookups')
      .set({
        status: 1,
        launched_by: userId,
        gateway_id: gatewayId,
        paused_reason: null,
        started_at: sql`coalesce(started_at, now())`,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .where('status', 'in', [0, 2])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return 'refused';
    deps.moved(id, 1);
    return 'started';
  }

  async function stop(teamId: number, id: number): Promise<boolean> {
    const moved = await db
      .updateTable('lookups')
      .set({ status: 2, paused_reason: null, rate_per_sec: null, updated_at: new Date() })
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('status', '=', 1)
      .executeTakeFirst();
    deps.moved(id, 2);
    return Number(moved.numUpdatedRows) > 0;
  }

  /**
   * Deletes a lookup: stopped first, and what its phones were charged and not yet looked up is
   * given back (results already written stay the team's).
   */
  async function remove(teamId: number, id: number): Promise<void> {
    await stop(teamId, id);
    const payer = await db
      .selectFrom('lookups')
      .select('launched_by')
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    const charged = await db.transaction().execute(async (tx) => {
      const rows = await sql<{ charge_key: string }>`select charge_key from lookup_items
        where lookup_id = ${id} and state in ('pending', 'claimed') and charge_key is not null for update`.execute(tx);
      if (payer?.launched_by)
        for (const r of rows.rows)
          await deps.refund(tx, teamId, {
            userId: Number(payer.launched_by),
            chargeKey: r.charge_key,
            reason: 'lookup_deleted',
          });
      await tx.deleteFrom('lookups').where('team_id', '=', teamId).where('id', '=', id).execute();
      return rows.rows.length;
    });
    if (charged > 0 && payer?.launched_by) await deps.announce(teamId, [Number(payer.launched_by)], { raised: true });
  }

  return { fill, start, stop, remove };
}
export type LookupMoves = ReturnType<typeof createLookupMoves>;
