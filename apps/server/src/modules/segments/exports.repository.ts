import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { TExport } from '@herald/shared/segments/segments.schemas';
import type { DB } from '../../db/schema.ts';
import type { ExportsTable } from '../../db/tables/segments.tables.ts';

export type ExportRow = Selectable<ExportsTable>;

/** CSV exports of segments: one row per requested file. */
export function createExportsRepository(db: Kysely<DB>) {
  /**
   * An update by the run of `attempt`, while the export is still pending and still its own; a run
   * still going stamps its heartbeat with the database's clock (as the sweep reads it, so a beat
   * that waited behind a long statement, or a node whose clock runs late, never looks older than it
   * is), an ended one clears it.
   */
  const updateRun = (id: number, attempt: number, patch: Updateable<ExportsTable>, alive: boolean) =>
    db
      .updateTable('exports')
      .set({ ...patch, heartbeat_at: alive ? sql<Date>`now()` : null })
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();

  return {
    async create(row: {
      team_id: number;
      user_id: number;
      segment_id: number | null;
      name: string;
      request: Record<string, unknown>;
    }): Promise<ExportRow> {
      return db
        .insertInto('exports')
        .values({ ...row, request: JSON.stringify(row.request) })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    update(
      id: number,
      patch: Partial<
        Pick<ExportRow, 'process_id' | 'stored_name' | 'status' | 'rows' | 'progress' | 'error' | 'completed_at'>
      >,
    ) {
      return db.updateTable('exports').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
    },

    findById(teamId: number, id: number) {
      return db.selectFrom('exports').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
    },

    /** For the job, which carries the team in its envelope and checks it. */
    findByIdUnscoped(id: number) {
      return db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** A run takes the export: a new attempt, alive from now. Null when it is no longer pending. */
    async claim(id: number): Promise<ExportRow | undefined> {
      return db
        .updateTable('exports')
        .set((eb) => ({ attempt: eb('attempt', '+', 1), heartbeat_at: sql<Date>`now()`, rows: 0, progress: 0 }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
    },

    /** The run of `attempt` is alive; undefined when another run has taken the export since. */
    beat(id: number, attempt: number, patch: Partial<Pick<ExportRow, 'rows' | 'progress'>> = {}) {
      return updateRun(id, attempt, patch, true);
    },

    /** Ends the run of `attempt` (completed or failed); undefined when another run owns it now. */
    finish(
      id: number,
      attempt: number,
      patch: Partial<Pick<ExportRow, 'stored_name' | 'status' | 'rows' | 'progress' | 'error' | 'completed_at'>>,
    ) {
      return updateRun(id, attempt, patch, false);
    },

    /**
     * Pending exports whose run has died (no beat for `staleSeconds`; every started one when
     * `staleSeconds` is null, for the embedded database at start, which only this process runs).
     * Each is returned once and counts as not started, so exactly one caller sends it again.
     */
    requeueOrphans(staleSeconds: number | null, alive: readonly number[]) {
      let q = db
        .updateTable('exports')
        .set({ heartbeat_at: null })
        .where('status', '=', 'pending')
        .where('heartbeat_at', 'is not', null);
      if (alive.length > 0) q = q.where('id', 'not in', [...alive]);
      if (staleSeconds !== null) {
        q = q.where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`);
      }
      return q.returning(['id', 'team_id', 'user_id', 'process_id']).execute();
    },

    /**
     * Pending exports no run has taken since before `seconds` ago: waiting in the queue, or never
     * sent (the process stopped between the row and the job, or the job failed before its claim).
     */
    waitingSince(seconds: number) {
      return db
        .selectFrom('exports')
        .select(['id', 'team_id', 'user_id', 'process_id'])
        .where('status', '=', 'pending')
        .where('heartbeat_at', 'is', null)
        .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
        .execute();
    },

    /** Forgets the files of exports finished more than `days` ago; returns them for deletion. */
    async expireFiles(days: number): Promise<string[]> {
      const r = await sql<{ stored_name: string }>`
        with old as (
          select id, stored_name from exports
          where stored_name is not null and completed_at < now() - make_interval(days => ${days})
          for update skip locked
        )
        update exports e set stored_name = null from old where e.id = old.id
        returning old.stored_name`.execute(db);
      return r.rows.map((row) => row.stored_name);
    },

    /** The user's exports still generating, and those finished in the last day (the header's list). */
    findActive(teamId: number, userId: number) {
      return db
        .selectFrom('exports')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([eb('status', '=', 'pending'), eb('created_at', '>', sql<Date>`now() - interval '1 day'`)]),
        )
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
    },
  };
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;

export function toExport(row: ExportRow): TExport {
  const type =
    row.status === 'completed' ? 'export-completed' : row.status === 'failed' ? 'export-failed' : 'export-pending';
  return {
    id: Number(row.id),
    name: row.name,
    segment_id: row.segment_id === null ? null : Number(row.segment_id),
    type,
    rows: row.rows,
    progress: row.progress,
    url: row.status === 'completed' ? `/api/exports/${row.id}/download` : null,
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}
