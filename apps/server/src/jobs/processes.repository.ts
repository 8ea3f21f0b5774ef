import type { Kysely, Selectable } from 'kysely';
import {
  FINISHED_PROCESS_STATUSES,
  type TProcess,
  type TProcessMessage,
  type TProcessStatus,
} from '@herald/shared/processes/processes.schemas';
import type { DB } from '../db/schema.ts';
import type { ProcessesTable } from '../db/tables/platform.tables.ts';

export interface ProcessPatch {
  status?: TProcessStatus;
  phase?: string | null;
  progress?: number;
  message?: TProcessMessage | null;
}

/** The `processes` rows the job queue keeps for user-visible jobs, and the popover's reads of them. */
export function createProcessesRepository(db: Kysely<DB>) {
  return {
    async create(
      teamId: number,
      userId: number,
      kind: string,
      title: string,
      status: 'queued' | 'running' = 'queued',
    ): Promise<TProcess> {
      const row = await db
        .insertInto('processes')
        .values({ team_id: teamId, user_id: userId, kind, title, status })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toProcess(row);
    },

    async update(teamId: number, id: number, patch: ProcessPatch): Promise<TProcess | undefined> {
      const row = await db
        .updateTable('processes')
        .set({
          ...patch,
          // jsonb: `{code, params}` as its JSON text, which both drivers store as given.
          message: patch.message === undefined ? undefined : patch.message && JSON.stringify(patch.message),
          updated_at: new Date(),
        })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toProcess(row);
    },

    async findVisible(teamId: number, userId: number, limit = 50): Promise<TProcess[]> {
      const rows = await db
        .selectFrom('processes')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .where('cleared', '=', false)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toProcess);
    },

    async clearFinished(teamId: number, userId: number): Promise<number> {
      const result = await db
        .updateTable('processes')
        .set({ cleared: true })
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .where('status', 'in', FINISHED_PROCESS_STATUSES)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type ProcessesRepository = ReturnType<typeof createProcessesRepository>;

function toProcess(row: Selectable<ProcessesTable>): TProcess {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    status: row.status,
    phase: row.phase,
    progress: row.progress,
    message: row.message,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
