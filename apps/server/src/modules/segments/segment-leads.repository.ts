import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

export type LeadOrderField = 'id' | 'created_at' | 'updated_at' | 'duplicates' | 'status';
export const LEAD_ORDER_FIELDS: LeadOrderField[] = ['id', 'created_at', 'updated_at', 'duplicates', 'status'];
/** The SQL type of each order field, for the keyset cursor of exports (kept as text, no precision lost). */
const ORDER_TYPES: Record<LeadOrderField, string> = {
  id: 'bigint',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  duplicates: 'integer',
  status: 'text',
};

export interface LeadQuery {
  /** The segment's membership, from the filter compiler. */
  where: RawBuilder<SqlBool>;
  search?: string;
}
export interface Order {
  field: LeadOrderField;
  dir: 'asc' | 'desc';
}

const leadColumns = ['id', 'status', 'source_id', 'list_id', 'duplicates', 'created_at', 'updated_at'] as const;

/** The leads of a segment: pages, counts and export batches over `leads` with a compiled predicate. */
export function createSegmentLeadsRepository(db: Kysely<DB>) {
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
      const row = await filtered(teamId, q)
        .select([
          sql<number>`count(*)`.as('total'),
          sql<number>`count(*) filter (where leads.status = 'blacklisted')`.as('blacklisted'),
          sql<number>`count(*) filter (where leads.duplicates > 0)`.as('duplicates'),
        ])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), blacklisted: Number(row.blacklisted), duplicates: Number(row.duplicates) };
    },

    /**
     * The next `limit` leads after `after` (the previous batch's last sort key and id) in `order`:
     * keyset batches, so an export of any size holds one batch in memory and never re-reads.
     */
    async batchAfter(
      teamId: number,
      q: LeadQuery & { order: Order; limit: number; after?: { key: string; id: number } },
    ): Promise<Array<{ id: number; status: TLeadStatus; sort_key: string }>> {
      const field = sql.ref(`leads.${q.order.field}`);
      let query = filtered(teamId, q);
      if (q.after) {
        const key = sql`cast(${q.after.key} as ${sql.raw(ORDER_TYPES[q.order.field])})`;
        query = query.where(
          q.order.dir === 'asc'
            ? sql<SqlBool>`(${field}, leads.id) > (${key}, ${q.after.id})`
            : sql<SqlBool>`(${field}, leads.id) < (${key}, ${q.after.id})`,
        );
      }
      const rows = await query
        .select(['leads.id', 'leads.status', sql<string>`${field}::text`.as('sort_key')])
        .orderBy(`leads.${q.order.field}`, q.order.dir)
        .orderBy('leads.id', q.order.dir)
        .limit(q.limit)
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id) }));
    },

    /** Values of these leads for these attributes, in value order (the lead's own order). */
    valuesOf(teamId: number, leadIds: number[], attributeIds: number[]) {
      return sql<{ lead_id: number; attribute_id: number; value: string }>`
        select lead_id, attribute_id, value from lead_values
        where team_id = ${teamId} and lead_id = any(${leadIds}::bigint[]) and attribute_id = any(${attributeIds}::bigint[])
        order by lead_id, id`
        .execute(db)
        .then((r) => r.rows);
    },
  };
}

export type SegmentLeadsRepository = ReturnType<typeof createSegmentLeadsRepository>;
