import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { ProcessesRepository } from '../../jobs/processes.repository.ts';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import type { LookupMoves } from './lookup-moves.ts';

export interface ListDeletesDeps {
  db: Kysely<DB>;
  moves: Pick<LookupMoves, 'stop' | 'remove'>;
  processes: Pick<ProcessesRepository, 'update'>;
  bus: Pick<EventBus, 'publishMany'>;
  /** How long the delete waits for calls already under way (a batch's charge, calls and write). */
  settleMs?: number;
  /** How often the engine's workers look at a lookup's status (its tick). */
  tickMs?: number;
}

/**
 * What happens to the lookups of lists (or sources) about to be deleted (decision 040): their rows
 * go with the list (the key cascades), so first they are stopped, the batches under way are let
 * finish (their phones answered are kept and paid; those not called go back with their charge), and
 * then each is removed as `DELETE lookup/{id}` removes one: the phones charged and not looked up are
 * refunded. The launcher's popover process ends as cancelled, told once the delete committed.
 */
export function createListDeletes(deps: ListDeletesDeps) {
  const { db } = deps;
  const settleMs = deps.settleMs ?? 3_000;
  const tickMs = deps.tickMs ?? 250;

  /** Calls still in flight: claims whose lease runs (a dead worker's are simply refunded). */
  async function inFlight(ids: number[]): Promise<number> {
    const r = await sql<{ n: string }>`select count(*) as n from lookup_items
      where lookup_id = any(${ids}::bigint[]) and state = 'claimed' and lease_until > now()`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  }

  return async function listsDeleting(teamId: number, by: 'list_id' | 'source_id', ids: number[]) {
    const of =
      by === 'list_id'
        ? sql`list_id = any(${ids}::bigint[])`
        : sql`(source_id = any(${ids}::bigint[]) or list_id in
            (select id from lists where team_id = ${teamId} and source_id = any(${ids}::bigint[])))`;
    const found = await sql<{ id: string; status: number; process_id: string | null; launched_by: string | null }>`
      select id, status, process_id, launched_by from lookups
      where team_id = ${teamId} and type = 'list' and ${of}`.execute(db);
    const lookups = found.rows.map((r) => ({
      id: Number(r.id),
      running: Number(r.status) === 1,
      completed: Number(r.status) === 3,
      processId: r.process_id === null ? null : Number(r.process_id),
      launchedBy: r.launched_by === null ? null : Number(r.launched_by),
    }));
    if (lookups.length === 0) return async () => {};

    for (const l of lookups) await deps.moves.stop(teamId, l.id);
    // Workers of other processes hear the stop at their next tick: until then they may still claim.
    if (lookups.some((l) => l.running)) await new Promise((r) => setTimeout(r, tickMs + 50));
    const lookupIds = lookups.map((l) => l.id);
    const until = Date.now() + settleMs;
    while ((await inFlight(lookupIds)) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    for (const l of lookups) await deps.moves.remove(teamId, l.id);

    const ended: Array<{ userId: number; process: TProcess }> = [];
    for (const l of lookups) {
      // A completed lookup's process stays completed: only one cut short ends as cancelled.
      if (l.processId === null || l.completed) continue;
      const process = await deps.processes.update(teamId, l.processId, {
        status: 'cancelled',
        phase: null,
        message: { code: 'lookup_list_deleted', params: { lookup_id: l.id } },
      });
      if (process && l.launchedBy !== null) ended.push({ userId: l.launchedBy, process });
    }
    return async () => {
      await deps.bus.publishMany(
        ended.map(({ userId, process }) => ({
          audience: { userId },
          event: { type: 'ProcessStatus' as const, payload: process },
        })),
      );
    };
  };
}
