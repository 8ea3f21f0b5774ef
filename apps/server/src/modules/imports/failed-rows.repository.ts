import { type Kysely, sql } from 'kysely';
import { findPage, type PageWindow } from '../../db/find-page.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';
import type { FailedRow } from './parser/parse-protocol.ts';

/** An import's failed rows: written by its run, read by the history screen and its CSV. */
export function createFailedRowsRepository(db: Kysely<DB>) {
  return {
    /**
     * Failed rows are written as they are found, the first `cap` of the import (in row order: a
     * re-run reads the file from its start again, so the same ones). A re-run's rows replace
     * nothing and take no room (same numbers).
     */
    async add(teamId: number, importId: number, rows: FailedRow[], cap: number) {
      if (rows.length === 0) return;
      await sql`
      insert into import_failed_rows (team_id, import_file_id, row_number, reason, reason_message, cells)
      select ${teamId}, ${importId}, r, reason, message::jsonb, cells::jsonb
      from unnest(${rows.map((r) => r.row)}::int[], ${rows.map((r) => r.reason)}::text[],
                  ${rows.map((r) => (r.message ? JSON.stringify(r.message) : null))}::text[],
                  ${rows.map((r) => JSON.stringify(r.cells))}::text[]) as t(r, reason, message, cells)
      where not exists (select 1 from import_failed_rows f where f.import_file_id = ${importId} and f.row_number = t.r)
      order by r
      limit greatest(0, ${cap} - (select count(*) from import_failed_rows f where f.import_file_id = ${importId}))
      on conflict (import_file_id, row_number) do nothing`.execute(db);
    },

    /** The failed rows after `afterRow`, in row order: the export's keyset batches. */
    findAfter(teamId: number, importId: number, afterRow: number, limit: number) {
      return db
        .selectFrom('import_failed_rows')
        .select(['row_number', 'reason', 'reason_message', 'cells'])
        .where('team_id', '=', teamId)
        .where('import_file_id', '=', importId)
        .where('row_number', '>', afterRow)
        .orderBy('row_number')
        .limit(limit)
        .execute();
    },

    findPage(teamId: number, importId: number, args: PageWindow<'id' | 'row_number' | 'reason'> & { search?: string }) {
      let q = db.selectFrom('import_failed_rows').where('team_id', '=', teamId).where('import_file_id', '=', importId);
      if (args.search) {
        const pattern = `%${escapeLike(args.search)}%`;
        // The cells' values, not their JSON: "value" or "attribute" would match every row.
        const inCells = sql<boolean>`exists (select 1 from jsonb_array_elements(cells) c where c->>'value' ilike ${pattern})`;
        q = q.where((eb) => eb.or([eb('reason', 'ilike', pattern), inCells]));
      }
      return findPage(q, (p) => p.select(['id', 'row_number', 'reason', 'reason_message', 'cells']), args);
    },
  };
}

export type FailedRowsRepository = ReturnType<typeof createFailedRowsRepository>;
