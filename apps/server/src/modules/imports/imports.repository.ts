import type { TImportStatus } from '@herald/shared/imports/imports.schemas';
import { type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { findPage, type PageWindow } from '../../db/find-page.ts';
import type { DB } from '../../db/schema.ts';
import type { ImportFilesTable } from '../../db/tables/imports.tables.ts';
import { escapeLike } from '../../db/sql-text.ts';
import { fromOf, IMPORT_MOVES, type ImportEvent, targetOf } from './import-state.ts';

type Db = Kysely<DB> | Transaction<DB>;
export type ImportFileRow = Selectable<ImportFilesTable>;
export type ImportFilePatch = Updateable<ImportFilesTable>;
export const RUNNING = ['queued', 'parsing', 'resolving', 'cancel_queued', 'cancelling'] as const;
/** Started imports a cancel takes back (a failed one too, when it kept its staging). */
const CANCELLABLE = fromOf('cancelRun').filter((s) => s !== 'failed');
/** `when status = … then …` for each move of an orphan (import-state.ts). */
const orphanMoves = Object.entries(IMPORT_MOVES.orphan).map(([from, [to]]) => sql`when status = ${from} then ${to}`);
/** What a write is fenced by: the team's, the run's attempt, the statuses it may find. */
interface Fence {
  teamId?: number;
  attempt?: number;
  status?: TImportStatus[];
}

/** Import files, their columns and failed rows. Every method takes the team first (or an id the job owns). */
export function createImportsRepository(db: Kysely<DB>) {
  function write(id: number, patch: ImportFilePatch, where: Fence) {
    let q = db
      .updateTable('import_files')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id);
    if (where.teamId !== undefined) q = q.where('team_id', '=', where.teamId);
    if (where.attempt !== undefined) q = q.where('attempt', '=', where.attempt);
    if (where.status) q = q.where('status', 'in', where.status);
    return q.returningAll().executeTakeFirst();
  }

  return {
    /** Leads of the team's imports completed since `since`: the import limit's usage of a period. */
    leadsImportedSince(on: Kysely<DB>, teamId: number, since: Date) {
      return on
        .selectFrom('import_files')
        .select(sql<number>`coalesce(sum(leads_processed), 0)::int`.as('n'))
        .where('team_id', '=', teamId)
        .where('status', '=', 'completed')
        .where('finished_at', '>=', since);
    },

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
      checkMobileStatus?: boolean,
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
          .set({
            mapped_at: new Date(),
            updated_at: new Date(),
            ...(checkMobileStatus === undefined ? {} : { check_mobile_status: checkMobileStatus }),
          })
          .where('team_id', '=', teamId)
          .where('id', '=', importId)
          .execute();
      });
    },

    /** Writes `patch` (never the status: see `move`); undefined when the row is not there (or not this attempt's). */
    update(id: number, patch: Omit<ImportFilePatch, 'status'>, where: Fence = {}) {
      return write(id, patch, where);
    },

    /** Moves the import's status by `event` (import-state.ts), with `patch`; undefined when it cannot move. */
    move(id: number, event: Exclude<ImportEvent, 'claim' | 'orphan'>, patch: ImportFilePatch = {}, where: Fence = {}) {
      return write(id, { ...patch, status: targetOf(event) }, { ...where, status: fromOf(event) });
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
          // As `transition(row, 'claim')` (import-state.ts), in one statement.
          status: sql`case when status = 'cancel_queued' then 'cancelling'
            when parsed_at is null then 'parsing' else 'resolving' end`,
          updated_at: new Date(),
        }))
        .where('id', '=', id)
        .where('status', 'in', fromOf('claim'))
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
        .where('status', 'in', CANCELLABLE)
        .execute();
    },

    /**
     * Cancels an import of the team. One not yet started ends at once; a running one (or a failed
     * one that could be resumed) becomes `cancel_queued` under a new attempt, which stops its run at
     * the next step, for a run that takes back what it published. Undefined when it has ended.
     */
    async cancel(teamId: number, id: number) {
      const now = new Date();
      const unstarted = await write(
        id,
        { stage: 'cancelled', finished_at: now, status: targetOf('cancel') },
        {
          teamId,
          status: fromOf('cancel'),
        },
      );
      if (unstarted) return unstarted;
      return db
        .updateTable('import_files')
        .set((eb) => ({
          attempt: eb('attempt', '+', 1),
          status: targetOf('cancelRun'),
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
            eb('status', 'in', CANCELLABLE),
            eb.and([eb('status', '=', 'failed'), eb('staging_table', 'is not', null)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Imports whose run has died (no heartbeat for `staleSeconds`; every running one when null, on
     * the embedded database, which only this process runs) go back to queued (a cancelling one to
     * cancel_queued), each returned to exactly one caller. Never those in `alive`, which this
     * process is running.
     */
    async requeueOrphans(staleSeconds: number | null, alive: readonly number[] = []) {
      // A row locked by a publishing transaction belongs to a run that is (or until its backend
      // notices a killed client, was) still working: skipped, not waited for, so a restart after a
      // kill -9 never blocks behind the dead run's last statement; the next sweep takes it.
      let candidates = db
        .selectFrom('import_files')
        .select('id')
        .where('status', 'in', fromOf('orphan'))
        .forUpdate()
        .skipLocked();
      if (alive.length > 0) candidates = candidates.where('id', 'not in', [...alive]);
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
          status: sql`case ${sql.join(orphanMoves, sql` `)} end`,
          heartbeat_at: null,
          updated_at: new Date(),
        })
        .where('id', 'in', candidates)
        .where('status', 'in', fromOf('orphan'))
        .returning(['id', 'team_id', 'user_id', 'process_id'])
        .execute();
    },

    /** Imports waiting for a run (queued, or a cancel queued) since before `seconds` ago. */
    waitingSince(seconds: number) {
      return db
        .selectFrom('import_files')
        .select(['id', 'team_id', 'user_id', 'process_id'])
        .where('status', 'in', fromOf('claim'))
        .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
        .execute();
    },

    /** `since`: the plan's history window; an import not ended yet is always in it. */
    page(teamId: number, args: PageWindow & { search?: string; since?: Date | null }) {
      let q = db.selectFrom('import_files').where('team_id', '=', teamId);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      if (args.since) q = q.where(sql<Date>`coalesce(finished_at, now())`, '>=', args.since);
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
        .set({ status: targetOf('expire'), stage: 'cancelled', finished_at: now, updated_at: now })
        .where('status', 'in', fromOf('expire'))
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
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
