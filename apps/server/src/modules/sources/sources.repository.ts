import { type Kysely, sql } from 'kysely';
import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { findPage, type PageWindow } from '../../db/find-page.ts';
import { deleteLeadsInBatches, type LeadOwners, removingLeadsOf } from '../../db/lead-store/lead-deletes.ts';
import { withLeadWrite } from '../../db/lead-store/lead-write.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

export type Activity = 'active' | 'inactive';
export const SOURCE_ORDER = ['name', 'created_at', 'id'] as const;
export interface PageArgs extends PageWindow<(typeof SOURCE_ORDER)[number]> {
  search?: string;
}

/**
 * Locks the imports a delete of these lists or sources takes with it (their key cascades), before
 * the delete locks the lists. A running import's chunk holds its import row, then its list: taken
 * the other way round, a delete and a chunk deadlock and PostgreSQL fails one of them (the delete
 * would answer 500). So the delete waits for the chunk in flight; the next chunk finds its import
 * gone, and the run ends its process (decision 009, "Deleting the list of a running import").
 */
async function lockImportsOf(tx: Kysely<DB>, teamId: number, by: 'list_id' | 'source_id', ids: number[]) {
  await tx
    .selectFrom('import_files')
    .select('id')
    .where('team_id', '=', teamId)
    .where(by, 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Leads deleted a transaction when a list or source goes on the embedded database (see
 * deleteWithLeads); PostgreSQL deletes them in the one transaction that deletes the list.
 */
export const EMBEDDED_LEAD_DELETE_BATCH = 5_000;

/**
 * Deletes lists or sources with their leads, and recounts the duplicates of the team's other leads
 * that shared a phone with them (the lead store). With a `batch`, the leads go first, that many a
 * transaction (see `deleteLeadsInBatches`); PostgreSQL's readers never wait on a delete, so there
 * the whole delete stays one transaction (batches cost it ~50% more). Last, the lists or sources
 * themselves, with whatever leads are left (the cascades of migration 0006): the imports are locked
 * first (see above), then the team's duplicate lock, as an import's chunk takes them, so neither
 * waits on the other in a circle.
 */
async function deleteWithLeads(
  db: Kysely<DB>,
  teamId: number,
  table: 'lists' | 'sources',
  ids: number[],
  batch: number | null,
) {
  const owners: LeadOwners = { column: table === 'lists' ? 'list_id' : 'source_id', ids };
  if (batch !== null) await deleteLeadsInBatches(db, teamId, owners, batch);
  const first = (tx: Kysely<DB>) => lockImportsOf(tx, teamId, owners.column, ids);
  return withLeadWrite(db, teamId, { phones: true, first }, async (w) => {
    const deleted = await removingLeadsOf(w, owners, () =>
      w.tx.deleteFrom(table).where('team_id', '=', teamId).where('id', 'in', ids).executeTakeFirst(),
    );
    return Number(deleted.numDeletedRows);
  });
}

/** Sources and their lists; counts are computed from `leads` by source or by list. */
export function createSourcesRepository(db: Kysely<DB>, leadDeleteBatch: number | null = null) {
  return {
    findSourcePage(teamId: number, args: PageArgs) {
      let q = db.selectFrom('sources').where('team_id', '=', teamId);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      return findPage(q, (p) => p.select(['id', 'name', 'status', 'created_at']), args);
    },

    findSource(teamId: number, id: number) {
      return db
        .selectFrom('sources')
        .select(['id', 'name', 'status', 'created_at'])
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findSourcesByIds(teamId: number, ids: number[]) {
      return db.selectFrom('sources').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute();
    },

    /** Runs `work` in one transaction: a create with its plan check (decision 015). */
    transaction<T>(work: (tx: Kysely<DB>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    createSource(teamId: number, name: string, on: Kysely<DB> = db) {
      return on
        .insertInto('sources')
        .values({ team_id: teamId, name })
        .returning(['id', 'name', 'status', 'created_at'])
        .executeTakeFirstOrThrow();
    },

    updateSource(teamId: number, id: number, patch: { name?: string; status?: Activity }) {
      return db
        .updateTable('sources')
        .set({ ...patch, updated_at: new Date() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .returning(['id', 'name', 'status', 'created_at'])
        .executeTakeFirst();
    },

    deleteSources(teamId: number, ids: number[]) {
      return deleteWithLeads(db, teamId, 'sources', ids, leadDeleteBatch);
    },

    findListsOfSources(teamId: number, sourceIds: number[]) {
      if (sourceIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('lists')
        .select(['id', 'name', 'status', 'source_id', 'created_at'])
        .where('team_id', '=', teamId)
        .where('source_id', 'in', sourceIds)
        .orderBy('id')
        .execute();
    },

    findListPage(teamId: number, sourceIds: number[] | undefined, args: PageArgs) {
      let q = db.selectFrom('lists').where('team_id', '=', teamId);
      if (sourceIds) q = q.where('source_id', 'in', sourceIds.length ? sourceIds : [0]);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      return findPage(q, (p) => p.select(['id', 'name', 'status', 'source_id', 'created_at']), args);
    },

    findList(teamId: number, id: number) {
      return db
        .selectFrom('lists')
        .select(['id', 'name', 'status', 'source_id', 'created_at'])
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    createList(teamId: number, sourceId: number, name: string, status: Activity, on: Kysely<DB> = db) {
      return on
        .insertInto('lists')
        .values({ team_id: teamId, source_id: sourceId, name, status })
        .returning(['id', 'name', 'status', 'source_id', 'created_at'])
        .executeTakeFirstOrThrow();
    },

    updateList(teamId: number, id: number, patch: { name?: string; status?: Activity }) {
      return db
        .updateTable('lists')
        .set({ ...patch, updated_at: new Date() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .returning(['id', 'name', 'status', 'source_id', 'created_at'])
        .executeTakeFirst();
    },

    deleteLists(teamId: number, ids: number[]) {
      return deleteWithLeads(db, teamId, 'lists', ids, leadDeleteBatch);
    },

    /**
     * Lead counts grouped by source or list (or the whole team), for the given ids, summed from the
     * per-list, per-day tallies the `leads` triggers keep. Days are UTC; "last 30 days" is today
     * and the 29 days before.
     */
    async countLeads(
      teamId: number,
      by: 'source_id' | 'list_id' | 'team_id',
      ids?: number[],
    ): Promise<Map<number, TLeadCounts>> {
      const today = sql`(now() at time zone 'UTC')::date`;
      let q = db
        .selectFrom('lead_counts')
        .select([
          sql<number>`${sql.ref(by)}`.as('key'),
          sql<number>`coalesce(sum(total), 0)`.as('total'),
          sql<number>`coalesce(sum(total) filter (where day = ${today}), 0)`.as('today'),
          sql<number>`coalesce(sum(total) filter (where day > ${today} - 30), 0)`.as('last30'),
          sql<number>`coalesce(sum(duplicate), 0)`.as('duplicate'),
          sql<number>`coalesce(sum(duplicate) filter (where day = ${today}), 0)`.as('duplicate_today'),
          sql<number>`coalesce(sum(flagged), 0)`.as('flagged'),
          sql<number>`coalesce(sum(blacklisted), 0)`.as('blacklisted'),
          sql<number>`coalesce(sum(looked_up), 0)`.as('looked_up'),
          sql<number>`coalesce(sum(verified), 0)`.as('verified'),
        ])
        .where('team_id', '=', teamId)
        .groupBy(by);
      if (ids) q = q.where(by, 'in', ids.length ? ids : [0]);
      const rows = await q.execute();
      return new Map(
        rows.map((r) => {
          const total = Number(r.total);
          const pct = (n: number) => (total > 0 ? Math.floor((100 * Number(n)) / total) : 0);
          const counts: TLeadCounts & { duplicates_today: number } = {
            total_leads: total,
            total_today: Number(r.today),
            total_last_30_days: Number(r.last30),
            duplicate: Number(r.duplicate),
            duplicates_today: Number(r.duplicate_today),
            total_flagged_leads: Number(r.flagged),
            total_blacklisted_leads: Number(r.blacklisted),
            percentage_lookup: pct(r.looked_up),
            percentage_verified: pct(r.verified),
          };
          return [Number(r.key), counts];
        }),
      );
    },

    async dataVersion(teamId: number): Promise<number> {
      const row = await db.selectFrom('teams').select('data_version').where('id', '=', teamId).executeTakeFirst();
      return Number(row?.data_version ?? 0);
    },
  };
}

export type SourcesRepository = ReturnType<typeof createSourcesRepository>;
