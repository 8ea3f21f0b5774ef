import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { SliceSizer } from '../../db/slice-sizer.ts';
import { escapeLike } from '../../db/sql-text.ts';
import { PHONES_CELL } from '@herald/shared/common/csv-cells';

/**
 * One CSV cell rendered by the database: `herald_csv_cell` (migration 0005) guards a leading
 * = + - @ tab or CR with `'`, except validated E.164 phones, which cannot run as formulas and must
 * re-import as they are — the rule of `csvCell` in packages/shared/src/common/csv-cells.ts.
 */
export function csvCellSql(cell: RawBuilder<unknown>): RawBuilder<string> {
  // Several phones are joined by '; ', which CSV quotes (as herald_csv_cell does for any ';').
  return sql<string>`(case when ${cell} ~ ${PHONES_CELL}
    then (case when strpos(${cell}, ';') > 0 then '"' || ${cell} || '"' else ${cell} end)
    else herald_csv_cell(${cell}) end)`;
}

export type LeadOrderField = 'id' | 'created_at' | 'updated_at' | 'duplicates' | 'status';
export const LEAD_ORDER_FIELDS: LeadOrderField[] = ['id', 'created_at', 'updated_at', 'duplicates', 'status'];
/** How an export walks the leads: by id down the index, or through a numbered table. */
export type Walk = { kind: 'id'; dir: 'asc' | 'desc' } | { kind: 'table'; table: string };

export interface LeadQuery {
  /** The segment's membership, from the filter compiler. */
  where: RawBuilder<SqlBool>;
  search?: string;
  /**
   * The predicate reads only each lead's own row (`readsLeadRowOnly`): with `countSlices`, its
   * count may be read in ranges of ids. Any predicate counts the same either way; this says which
   * costs less.
   */
  inRanges?: boolean;
}
export interface Order {
  field: LeadOrderField;
  dir: 'asc' | 'desc';
}

const leadColumns = ['id', 'status', 'source_id', 'list_id', 'duplicates', 'created_at', 'updated_at'] as const;

/**
 * The leads of a segment: pages, counts and export batches over `leads` with a compiled predicate.
 * With `countSlices` (the embedded database), a count reads the team's leads in ranges of ids as
 * it sizes them, so a count over a million leads is many short holds of the one connection.
 */
export function createSegmentLeadsRepository(db: Kysely<DB>, options: { countSlices?: () => SliceSizer } = {}) {
  function filtered(teamId: number, q: LeadQuery) {
    let query = db.selectFrom('leads').where('leads.team_id', '=', teamId).where(q.where);
    if (q.search) {
      // The leads table's search: a fragment of any value (trigram index).
      const pattern = `%${escapeLike(q.search)}%`;
      query = query.where('leads.id', 'in', (eb) =>
        eb.selectFrom('lead_values').select('lead_id').where('team_id', '=', teamId).where('value', 'ilike', pattern),
      );
    }
    return query;
  }

  /**
   * The next `limit` leads of the walk after position `after`, and their cells (one per chosen
   * attribute, several values joined by '; ', then the status in the requester's words).
   */
  function batchParts(
    teamId: number,
    walk: Walk,
    q: LeadQuery,
    after: number | undefined,
    limit: number,
    attributeIds: number[],
    statusLabels: Record<string, string> | undefined,
  ) {
    const labels = Object.entries(statusLabels ?? {});
    const status =
      labels.length === 0
        ? sql`b.status`
        : sql`(case b.status ${sql.join(
            labels.map(([value, label]) => sql`when ${value} then ${label}`),
            sql` `,
          )} else b.status end)`;
    let batch: RawBuilder<unknown>;
    if (walk.kind === 'id') {
      let query = filtered(teamId, q);
      if (after !== undefined) query = query.where('leads.id', walk.dir === 'asc' ? '>' : '<', after);
      const page = query
        .select(['leads.id', 'leads.status', 'leads.id as pos'])
        .orderBy('leads.id', walk.dir)
        .limit(limit);
      batch = sql`${page}`;
    } else {
      batch = sql`select l.id, l.status, o.n as pos from ${sql.table(walk.table)} o join leads l on l.id = o.lead_id
        where l.team_id = ${teamId} and o.n > ${after ?? 0} order by o.n limit ${limit}`;
    }
    // The batch's values pivoted to one row per lead (a column per chosen attribute), looked up by
    // the batch's ids as one array, which the index walks in order; a join per (lead, attribute)
    // took 2–3× as long on both databases.
    const values = attributeIds.map(
      (id) => sql`string_agg(v.value, '; ' order by v.id) filter (where v.attribute_id = ${id})`,
    );
    const pivot =
      attributeIds.length === 0
        ? sql`select null::bigint as lead_id where false`
        : sql`select v.lead_id, ${sql.join(values.map((agg, i) => sql`${agg} as ${sql.ref(`c${i}`)}`))}
          from lead_values v
          where v.lead_id = any(array(select id from batch)) and v.attribute_id = any(${attributeIds}::bigint[])
          group by v.lead_id`;
    const cells: RawBuilder<unknown>[] = [
      ...values.map((_, i) => sql`coalesce(${sql.ref(`vals.c${i}`)}, '')`),
      sql`${status}::text`,
    ];
    return { batch, pivot, cells, dir: sql.raw(walk.kind === 'id' ? walk.dir : 'asc') };
  }

  return {
    findPage(teamId: number, q: LeadQuery & { order: Order; offset: number; limit: number }) {
      return filtered(teamId, q)
        .select(leadColumns.map((c) => `leads.${c}` as const))
        .orderBy(`leads.${q.order.field}`, q.order.dir)
        .orderBy('leads.id', q.order.dir)
        .offset(q.offset)
        .limit(q.limit)
        .execute();
    },

    async count(teamId: number, q: LeadQuery) {
      const counts = async (lo?: number, hi?: number) => {
        let query = filtered(teamId, q);
        if (lo !== undefined && hi !== undefined) query = query.where('leads.id', '>', lo).where('leads.id', '<=', hi);
        const row = await query
          .select([
            sql<number>`count(*)`.as('total'),
            sql<number>`count(*) filter (where leads.status = 'blacklisted')`.as('blacklisted'),
            sql<number>`count(*) filter (where leads.duplicates > 0)`.as('duplicates'),
          ])
          .executeTakeFirstOrThrow();
        return { total: Number(row.total), blacklisted: Number(row.blacklisted), duplicates: Number(row.duplicates) };
      };
      // A search's matches are one uncorrelated subquery, which each range would read again.
      if (!options.countSlices || q.search || !q.inRanges) return counts();
      const slices = options.countSlices();
      const bounds = await db
        .selectFrom('leads')
        .select([sql<number | null>`min(id)`.as('lo'), sql<number | null>`max(id)`.as('hi')])
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow();
      const out = { total: 0, blacklisted: 0, duplicates: 0 };
      if (bounds.lo === null || bounds.hi === null) return out;
      const last = Number(bounds.hi);
      for (let lo = Number(bounds.lo) - 1; lo < last; ) {
        const hi = Math.min(last, lo + slices.size());
        const started = performance.now();
        const part = await counts(lo, hi);
        slices.held(hi - lo, performance.now() - started);
        out.total += part.total;
        out.blacklisted += part.blacklisted;
        out.duplicates += part.duplicates;
        lo = hi;
      }
      return out;
    },

    /**
     * Readies an export's walk through the leads in `order`. By id it is a keyset walk down the
     * team's index; any other order is numbered once into an unlogged table (one sort, like the
     * import's staging tables), so every batch is a range read and memory never grows with rows.
     */
    async prepareWalk(teamId: number, exportId: number, q: LeadQuery & { order: Order }): Promise<Walk> {
      if (q.order.field === 'id') return { kind: 'id', dir: q.order.dir };
      const table = `export_order_${exportId}`;
      const dir = sql.raw(q.order.dir);
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
      const numbered = filtered(teamId, q).select([
        'leads.id as lead_id',
        sql<number>`row_number() over (order by ${sql.ref(`leads.${q.order.field}`)} ${dir}, leads.id ${dir})`.as('n'),
      ]);
      await sql`create unlogged table ${sql.table(table)} as ${numbered}`.execute(db);
      await sql`alter table ${sql.table(table)} add primary key (n)`.execute(db);
      return { kind: 'table', table };
    },

    /**
     * The next `limit` leads of the walk after position `after` (a lead id, or a row number),
     * rendered as CSV lines by the database (`herald_csv_cell`, the same rule as packages/shared/src/common/csv-cells.ts): one
     * string per batch reaches Node instead of a row object per value, which keeps the export's
     * memory flat and its time in the database's hash joins.
     */
    async renderBatch(
      teamId: number,
      walk: Walk,
      q: LeadQuery,
      after: number | undefined,
      limit: number,
      attributeIds: number[],
      /** Status values as the requester reads them; as stored when not given. */
      statusLabels?: Record<string, string>,
    ): Promise<{ text: string; count: number; last: number }> {
      const parts = batchParts(teamId, walk, q, after, limit, attributeIds, statusLabels);
      const cells = parts.cells.map(csvCellSql);
      const result = await sql<{ text: string | null; count: number; low: number | null; high: number | null }>`
        with batch as materialized (${parts.batch}), vals as (${parts.pivot})
        select string_agg(${sql.join(cells, sql` || ',' || `)} || chr(13) || chr(10), ''
            order by b.pos ${parts.dir}) as text,
          count(*)::int as count, min(b.pos) as low, max(b.pos) as high
        from batch b left join vals on vals.lead_id = b.id`.execute(db);
      const row = result.rows[0];
      return { text: row.text ?? '', count: Number(row.count), last: lastOf(walk, row) };
    },

    /** The same batch as `renderBatch`, as rows of plain text cells (for XLSX). */
    async rowsBatch(
      teamId: number,
      walk: Walk,
      q: LeadQuery,
      after: number | undefined,
      limit: number,
      attributeIds: number[],
      statusLabels?: Record<string, string>,
    ): Promise<{ rows: string[][]; count: number; last: number }> {
      const parts = batchParts(teamId, walk, q, after, limit, attributeIds, statusLabels);
      const result = await sql<{ rows: string[][] | null; count: number; low: number | null; high: number | null }>`
        with batch as materialized (${parts.batch}), vals as (${parts.pivot})
        select json_agg(json_build_array(${sql.join(parts.cells)}) order by b.pos ${parts.dir}) as rows,
          count(*)::int as count, min(b.pos) as low, max(b.pos) as high
        from batch b left join vals on vals.lead_id = b.id`.execute(db);
      const row = result.rows[0];
      const rows = typeof row.rows === 'string' ? (JSON.parse(row.rows) as string[][]) : (row.rows ?? []);
      return { rows, count: Number(row.count), last: lastOf(walk, row) };
    },

    async endWalk(walk: Walk) {
      if (walk.kind === 'table') await sql`drop table if exists ${sql.table(walk.table)}`.execute(db);
    },
  };
}

export type SegmentLeadsRepository = ReturnType<typeof createSegmentLeadsRepository>;

/** The walk goes on from the batch's far end: its lowest id when walking ids downwards. */
function lastOf(walk: Walk, row: { low: number | null; high: number | null }): number {
  return Number((walk.kind === 'id' && walk.dir === 'desc' ? row.low : row.high) ?? 0);
}
