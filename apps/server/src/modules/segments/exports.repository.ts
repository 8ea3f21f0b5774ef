import { type Kysely, type Selectable, sql } from 'kysely';
import type { TExport } from '@herald/shared/segments/segments.schemas';
import type { DB } from '../../db/schema.ts';
import type { ExportsTable } from '../../db/tables/segments.tables.ts';

export type ExportRow = Selectable<ExportsTable>;

/** CSV exports of segments: one row per requested file. */
export function createExportsRepository(db: Kysely<DB>) {
  return {
    async create(row: {
      team_id: number;
      user_id: number;
      segment_id: number;
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
