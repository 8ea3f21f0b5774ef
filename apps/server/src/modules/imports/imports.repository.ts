import { CANCELLABLE_RUNS } from '@herald/shared/imports/imports.schemas';
import { type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { findPage, type PageWindow } from '../../db/find-page.ts';
import type { DB } from '../../db/schema.ts';
import type { ImportFilesTable } from '../../db/tables/imports.tables.ts';
import { escapeLike } from '../../db/sql-text.ts';
import type { FailedRow } from './parser/parse-protocol.ts';

type Db = Kysely<DB> | Transaction<DB>;
export type ImportFileRow = Selectable<ImportFilesTable>;
export type ImportFilePatch = Updateable<ImportFilesTable>;
export const RUNNING = ['queued', 'parsing', 'resolving', 'cancel_queued', 'cancelling'] as const;

/** Import files, their columns and failed rows. Every method takes the team first (or an id the job owns). */
export function createImportsRepository(db: Kysely<DB>) {
  return {
    async create(
      teamId: number,
      row: Omit<ImportFilesTable, 'id' | 'team_id' | 'created_at' | 'updated_at' | 'preview'> & { preview: string[][] },
      columns: Array<{ name: string; col_position: number; lead_attribute_id: number | null; ignored: boolean }>,
    ) {
      return db.transaction().execute(async (tx) => {
        const file = await tx
          .insertInto('import_files')
          .values({ ...(row as object), team_id: teamId, preview: JSON.stringify(row.preview) } as never)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (columns.length > 0) {
          await tx
            .insertInto('import_file_attributes')
            .values(columns.map((c) => ({ ...c, team_id: teamId, import_file_id: file.id })))
            .execute();
        }
        return file;
      });
    },

    findById(teamId: number, id: number, tx: Db = db) {
      return tx
        .selectFrom('import_files')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** For the job, which has only the id it was given. */
    findByIdUnscoped(id: number) {
      return db.selectFrom('import_files').selectAll().where('id', '=', id).executeTakeFirst();
    },

    columns(teamId: number, importId: number, tx: Db = db) {
      return tx
        .selectFrom('import_file_attributes')
        .select(['id', 'name', 'col_position', 'lead_attribute_id', 'ignored'])
        .where('team_id', '=', teamId)
        .where('import_file_id', '=', importId)
        .orderBy('col_position')
        .execute();
    },

    async saveMapping(
      teamId: number,
      importId: number,
      mapping: Array<{ id: number; lead_attribute_id: number | null; ignored: boolean }>,
    ) {
      await db.transaction().execute(async (tx) => {
        for (const m of mapping) {
          await tx
            .updateTable('import_file_attributes')
            .set({ lead_attribute_id: m.lead_attribute_id, ignored: m.ignored })
            .where('team_id', '=', teamId)
            .where('import_file_id', '=', importId)
            .where('id', '=', m.id)
            .execute();
        }
        await tx
          .updateTable('import_files')
          .set({ mapped_at: new Date(), updated_at: new Date() })
          .where('team_id', '=', teamId)
          .where('id', '=', importId)
          .execute();
      });
    },

    async update(
      id: number,
      patch: ImportFilePatch,
      where: { teamId?: number; attempt?: number; status?: string[] } = {},
    ) {
      let q = db
        .updateTable('import_files')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id);
      if (where.teamId !== undefined) q = q.where('team_id', '=', where.teamId);
      if (where.attempt !== undefined) q = q.where('attempt', '=', where.attempt);
      if (where.status) q = q.where('status', 'in', where.status as never);
      return q.returningAll().executeTakeFirst();
    },

    /**
     * Takes the import for a new run, by one run: a queued import to parse or publish, a
     * cancel_queued one to take its published leads back.
     */
    claim(id: number) {
      return db
        .updateTable('import_files')
        .set((eb) => ({
          attempt: eb('attempt', '+', 1),
          heartbeat_at: sql<Date>`now()`,
          status: sql`case when status = 'cancel_queued' then 'cancelling'
            when parsed_at is null then 'parsing' else 'resolving' end`,
          updated_at: new Date(),
        }))
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'cancel_queued'])
        .returningAll()
        .executeTakeFirst();
    },

    /** The team's imports into these lists (or sources) whose run is under way. */
    async runningOf(teamId: number, by: 'list_id' | 'source_id', ids: number[]) {
      return db
        .selectFrom('import_files')
        .selectAll()
        .where('team_id', '=', teamId)
        .where(by, 'in', ids)
        .where('status', 'in', [...CANCELLABLE_RUNS])
        .execute();
    },

    /**
     * Cancels an import of the team. One not yet started ends at once; a running one (or a failed
     * one that could be resumed) becomes `cancel_queued` under a new attempt, which stops its run at
     * the next step, for a run that takes back what it published. Undefined when it has ended.
     */
    async cancel(teamId: number, id: number) {
      const now = new Date();
      const unstarted = await db
        .updateTable('import_files')
        .set({ status: 'cancelled', stage: 'cancelled', finished_at: now, updated_at: now })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where('status', '=', 'uploaded')
        .returningAll()
        .executeTakeFirst();
      if (unstarted) return unstarted;
      return db
        .updateTable('import_files')
        .set((eb) => ({
          attempt: eb('attempt', '+', 1),
          status: 'cancel_queued',
          stage: 'cancelling',
          heartbeat_at: null,
          error: null,
          error_code: null,
          updated_at: now,
        }))
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('status', 'in', [...CANCELLABLE_RUNS]),
            eb.and([eb('status', '=', 'failed'), eb('staging_table', 'is not', null)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Imports whose run has died (no heartbeat for `staleSeconds`; every running one when the
     * embedded database has just started, since only this process can have run them) go back to
     * queued (a cancelling one to cancel_queued), each returned to exactly one caller.
     */
    async requeueOrphans(staleSeconds: number | null) {
      // A row locked by a publishing transaction belongs to a run that is (or until its backend
      // notices a killed client, was) still working: skipped, not waited for, so a restart after a
      // kill -9 never blocks behind the dead run's last statement; the next sweep takes it.
      let candidates = db
        .selectFrom('import_files')
        .select('id')
        .where('status', 'in', ['parsing', 'resolving', 'cancelling'])
        .forUpdate()
        .skipLocked();
      if (staleSeconds !== null) {
        candidates = candidates.where((eb) =>
          eb.or([
            eb('heartbeat_at', 'is', null),
            eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
          ]),
        );
      }
      return db
        .updateTable('import_files')
        .set({
          status: sql`case when status = 'cancelling' then 'cancel_queued' else 'queued' end`,
          heartbeat_at: null,
          updated_at: new Date(),
        })
        .where('id', 'in', candidates)
        .where('status', 'in', ['parsing', 'resolving', 'cancelling'])
        .returning(['id', 'team_id', 'user_id', 'process_id'])
        .execute();
    },

    /** Imports waiting for a run (queued, or a cancel queued) since before `seconds` ago. */
    waitingSince(seconds: number) {
      return db
        .selectFrom('import_files')
        .select(['id', 'team_id', 'user_id', 'process_id'])
        .where('status', 'in', ['queued', 'cancel_queued'])
        .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
        .execute();
    },

    page(teamId: number, args: PageWindow & { search?: string }) {
      let q = db.selectFrom('import_files').where('team_id', '=', teamId);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      return findPage(q, (p) => p.selectAll(), args);
    },

    active(teamId: number) {
      return db
        .selectFrom('import_files')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('status', 'in', [...RUNNING])
        .orderBy('id', 'desc')
        .execute();
    },

    /** Uploads left at Match Format since before `hours` ago end as cancelled: nobody will map them now. */
    async expireUploads(hours: number) {
      const now = new Date();
      return db
        .updateTable('import_files')
        .set({ status: 'cancelled', stage: 'cancelled', finished_at: now, updated_at: now })
        .where('status', '=', 'uploaded')
        .where('created_at', '<', new Date(now.getTime() - hours * 3_600_000))
        .returning(['id'])
        .execute();
    },

    /**
     * Which of these stored files an import still reads: one not yet run or running, or a failed one
     * kept for a resume (which may read its file again). The rest, and files of no import at all
     * (deleted with their list, source or team), are only taking disk space.
     */
    async filesInUse(storedNames: string[]): Promise<Set<string>> {
      if (storedNames.length === 0) return new Set();
      const rows = await db
        .selectFrom('import_files')
        .select('stored_name')
        .where('stored_name', 'in', storedNames)
        .where((eb) =>
          eb.or([
            eb('status', 'in', ['uploaded', ...RUNNING]),
            eb.and([eb('status', '=', 'failed'), eb('staging_table', 'is not', null)]),
          ]),
        )
        .execute();
      return new Set(rows.map((r) => r.stored_name));
    },

    /**
     * Failed rows are written as they are found, the first `cap` of the import (in row order: a
     * re-run reads the file from its start again, so the same ones). A re-run's rows replace
     * nothing and take no room (same numbers).
     */
    async addFailed(teamId: number, importId: number, rows: FailedRow[], cap: number) {
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
    failedAfter(teamId: number, importId: number, afterRow: number, limit: number) {
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

    failedPage(
      teamId: number,
      importId: number,
      args: PageWindow<'id' | 'row_number' | 'reason'> & { search?: string },
    ) {
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

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
