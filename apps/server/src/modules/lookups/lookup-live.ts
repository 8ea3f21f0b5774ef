import { type Kysely, sql } from 'kysely';
import { can } from '@herald/shared/auth/permissions';
import type { TRole } from '@herald/shared/auth/roles';
import type { TEventAudience, TServerEvent } from '@herald/shared/events/events.schemas';
import { LOOKUP_PROCESS_KIND, type TLookup } from '@herald/shared/lookups/lookups.schemas';
import type { TProcessStatus } from '@herald/shared/processes/processes.schemas';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { ProcessesRepository } from '../../jobs/processes.repository.ts';
import type { LookupsRepository } from './lookups.repository.ts';

const PROCESS_STATUS: Record<number, TProcessStatus> = { 0: 'queued', 1: 'running', 2: 'paused', 3: 'completed' };
/** A running lookup's row and popover move at most this often. */
const PROGRESS_EVERY_MS = 1_000;

/**
 * A lookup as the team sees it move (decision 040): every change is a `LookupStatus` event to the
 * members who may read lookups, and a started lookup is a process in its launcher's popover
 * (`lookups.process_id`), its bar the phones settled, its line what is left or why it paused.
 */
export function createLookupLive(deps: {
  db: Kysely<DB>;
  bus: Pick<EventBus, 'publishMany'>;
  processes: Pick<ProcessesRepository, 'update'>;
  repo: LookupsRepository;
}) {
  const { db } = deps;
  const last = new Map<number, { at: number; said: string }>();

  async function processOf(l: TLookup, teamId: number): Promise<number | null> {
    if (l.launched_by === null || l.started_at === null) return null;
    const launcher = l.launched_by;
    return db.transaction().execute(async (tx) => {
      const row = await sql<{
        process_id: string | null;
      }>`select process_id from lookups where id = ${l.id} for update`.execute(tx);
      const current = row.rows[0]?.process_id;
      if (current !== null && current !== undefined) return Number(current);
      const title = l.list?.name ?? l.source?.name ?? `#${l.id}`;
      const made = await tx
        .insertInto('processes')
        .values({ team_id: teamId, user_id: launcher, kind: LOOKUP_PROCESS_KIND, title, status: 'running' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx.updateTable('lookups').set({ process_id: made.id }).where('id', '=', l.id).execute();
      return Number(made.id);
    });
  }

  async function readersOf(teamId: number): Promise<number[]> {
    const users = await db.selectFrom('users').select(['id', 'role']).where('team_id', '=', teamId).execute();
    return users.filter((u) => can(u.role as TRole, 'lookups:read')).map((u) => Number(u.id));
  }

  async function tell(ids: number[], force: boolean) {
    if (ids.length === 0) return;
    const teams = await db.selectFrom('lookups').select(['id', 'team_id']).where('id', 'in', ids).execute();
    const items: Array<{ audience: TEventAudience; event: TServerEvent }> = [];
    const readers = new Map<number, number[]>();
    for (const { id, team_id } of teams) {
      const teamId = Number(team_id);
      const [l] = await deps.repo.views(teamId, [Number(id)]);
      if (!l) continue;
      const said = `${l.status}:${l.count}:${l.time_left}:${l.reason}`;
      if (!force && last.get(l.id)?.said === said) continue;
      last.set(l.id, { at: Date.now(), said });
      if (l.status !== 1) last.delete(l.id);
      const processId = await processOf(l, teamId);
      if (processId !== null && l.launched_by !== null) {
        const done = l.phones - l.count;
        const process = await deps.processes.update(teamId, processId, {
          status: PROCESS_STATUS[l.status],
          phase: null,
          progress: l.status === 3 ? 100 : Math.min(99, l.percent),
          message: {
            code:
              l.status === 2 ? (l.reason ?? 'lookup_stopped') : l.status === 3 ? 'lookup_completed' : 'lookup_progress',
            params: { lookup_id: l.id, done, phones: l.phones },
          },
        });
        if (process)
          items.push({ audience: { userId: l.launched_by }, event: { type: 'ProcessStatus', payload: process } });
      }
      if (!readers.has(teamId)) readers.set(teamId, await readersOf(teamId));
      for (const userId of readers.get(teamId) ?? [])
        items.push({ audience: { userId }, event: { type: 'LookupStatus', payload: l } });
    }
    await deps.bus.publishMany(items);
  }

  return {
    /** After a move committed (a user's or the engine's). */
    changed: (ids: number[]) => tell([...new Set(ids)], true),
    /** Each tick: running lookups whose figures moved, each at most once a second. */
    progress: (ids: number[]) => {
      const now = Date.now();
      return tell(
        ids.filter((id) => now - (last.get(id)?.at ?? 0) >= PROGRESS_EVERY_MS),
        false,
      );
    },
  };
}
export type LookupLive = ReturnType<typeof createLookupLive>;
