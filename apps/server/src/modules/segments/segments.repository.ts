import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { TSegmentCondition } from '@herald/shared/segments/segment-conditions';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

type Db = Kysely<DB> | Transaction<DB>;
export type SegmentOrderField = 'id' | 'name' | 'created_at';

const columns = [
  's.id',
  's.name',
  's.parent_id',
  's.ignore_new_leads',
  's.conditions',
  's.version',
  's.frozen_at',
  's.created_at',
  's.updated_at',
] as const;

export interface SegmentRow {
  id: number;
  name: string;
  parent_id: number | null;
  ignore_new_leads: boolean;
  conditions: TSegmentCondition[];
  version: number;
  frozen_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Segments and frozen memberships. Every method takes the team first. */
export function createSegmentsRepository(db: Kysely<DB>) {
  const withCounts = (teamId: number) =>
    db
      .selectFrom('segments as s')
      .leftJoin('segments as p', 'p.id', 's.parent_id')
      .select(columns)
      .select(['p.name as parent_name'])
      .select((eb) =>
        eb
          .selectFrom('segments as c')
          .whereRef('c.parent_id', '=', 's.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('segments_count'),
      )
      .where('s.team_id', '=', teamId);

  return {
    transaction<T>(fn: (tx: Transaction<DB>) => Promise<T>) {
      return db.transaction().execute(fn);
    },

    findById(teamId: number, id: number) {
      return withCounts(teamId).where('s.id', '=', id).executeTakeFirst();
    },

    /** The segment and its ancestors, audience first; empty when it is not the team's. */
    async chain(teamId: number, id: number, tx: Db = db): Promise<SegmentRow[]> {
      const rows = await sql<SegmentRow & { depth: number }>`
        with recursive up as (
          select s.*, 0 as depth from segments s where s.team_id = ${teamId} and s.id = ${id}
          union all
          select p.*, up.depth + 1 from segments p join up on p.id = up.parent_id where p.team_id = ${teamId}
        )
        select id, name, parent_id, ignore_new_leads, conditions, version, frozen_at, created_at, updated_at, depth
        from up order by depth desc`.execute(tx);
      return rows.rows.map(({ depth: _, ...r }) => ({
        ...r,
        id: Number(r.id),
        parent_id: r.parent_id && Number(r.parent_id),
      }));
    },

    /** Every segment of the team, audiences first (for building each one's chain in memory). */
    async all(teamId: number): Promise<SegmentRow[]> {
      const rows = await db
        .selectFrom('segments as s')
        .select(columns)
        .where('s.team_id', '=', teamId)
        .orderBy('s.id')
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), parent_id: r.parent_id && Number(r.parent_id) }));
    },

    /**
     * Which of `predicates` the lead matches, in one pass over its row; null when the lead is not
     * the team's.
     */
    async matching(teamId: number, leadId: number, predicates: Array<{ id: number; where: RawBuilder<SqlBool> }>) {
      const cases = predicates.map((p) => sql`case when ${p.where} then ${p.id}::bigint end`);
      const row = await sql<{ ids: Array<number | string> }>`
        select array_remove(array[${sql.join([sql`null::bigint`, ...cases])}], null) as ids
        from leads where leads.team_id = ${teamId} and leads.id = ${leadId}`
        .execute(db)
        .then((r) => r.rows[0]);
      return row ? new Set(row.ids.map(Number)) : null;
    },

    async findPage(
      teamId: number,
      args: {
        parentId: number | null;
        search?: string;
        order: { field: SegmentOrderField; dir: 'asc' | 'desc' };
        offset: number;
        limit: number;
      },
    ) {
      let q = withCounts(teamId);
      q = args.parentId === null ? q.where('s.parent_id', 'is', null) : q.where('s.parent_id', '=', args.parentId);
      if (args.search) q = q.where('s.name', 'ilike', `%${escapeLike(args.search)}%`);
      let total = db.selectFrom('segments as s').where('s.team_id', '=', teamId);
      total =
        args.parentId === null
          ? total.where('s.parent_id', 'is', null)
          : total.where('s.parent_id', '=', args.parentId);
      if (args.search) total = total.where('s.name', 'ilike', `%${escapeLike(args.search)}%`);
      const [rows, count] = await Promise.all([
        q
          .orderBy(`s.${args.order.field}`, args.order.dir)
          .orderBy('s.id', args.order.dir)
          .offset(args.offset)
          .limit(args.limit)
          .execute(),
        total.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    async insert(
      teamId: number,
      row: { parent_id: number | null; name: string; ignore_new_leads: boolean; conditions: TSegmentCondition[] },
      tx: Db,
    ) {
      const r = await tx
        .insertInto('segments')
        .values({ ...row, team_id: teamId, conditions: JSON.stringify(row.conditions) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },

    async update(
      teamId: number,
      id: number,
      patch: { name?: string; ignore_new_leads?: boolean; conditions?: TSegmentCondition[] },
      tx: Db,
    ) {
      const { conditions, ...rest } = patch;
      await tx
        .updateTable('segments')
        .set((eb) => ({
          ...rest,
          ...(conditions ? { conditions: JSON.stringify(conditions) } : {}),
          version: eb('version', '+', 1),
          updated_at: new Date(),
        }))
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
    },

    /** Replaces the frozen members with the leads matching `where` now. */
    async freeze(teamId: number, id: number, where: RawBuilder<SqlBool>, tx: Db) {
      await tx.deleteFrom('segment_members').where('segment_id', '=', id).execute();
      await sql`
        insert into segment_members (segment_id, lead_id, team_id)
        select ${id}, leads.id, ${teamId} from leads where leads.team_id = ${teamId} and ${where}`.execute(tx);
      await tx
        .updateTable('segments')
        .set({ frozen_at: new Date() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
    },

    async unfreeze(teamId: number, id: number, tx: Db) {
      await tx.deleteFrom('segment_members').where('segment_id', '=', id).execute();
      await tx
        .updateTable('segments')
        .set({ frozen_at: null })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
    },

    /** A duplicate keeps the very members of its original, frozen at the same moment. */
    async copyMembers(teamId: number, fromId: number, toId: number, frozenAt: Date, tx: Db) {
      await sql`
        insert into segment_members (segment_id, lead_id, team_id)
        select ${toId}, lead_id, team_id from segment_members where segment_id = ${fromId} and team_id = ${teamId}`.execute(
        tx,
      );
      await tx
        .updateTable('segments')
        .set({ frozen_at: frozenAt })
        .where('team_id', '=', teamId)
        .where('id', '=', toId)
        .execute();
    },

    async delete(teamId: number, ids: number[]) {
      const r = await db.deleteFrom('segments').where('team_id', '=', teamId).where('id', 'in', ids).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** The team's attributes' bits in `leads.value_mask` (migration 0007), by attribute id. */
    async presenceBits(teamId: number): Promise<Map<number, number>> {
      const rows = await db
        .selectFrom('lead_attributes')
        .select(['id', 'presence_bit'])
        .where('team_id', '=', teamId)
        .where('presence_bit', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), Number(r.presence_bit)]));
    },

    async existingIds(teamId: number, table: 'sources' | 'lists' | 'campaigns', ids: number[]) {
      if (ids.length === 0) return new Set<number>();
      const rows = await db
        .selectFrom(table)
        .select('id')
        .where('team_id', '=', teamId)
        .where('id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => Number(r.id)));
    },
  };
}

export type SegmentsRepository = ReturnType<typeof createSegmentsRepository>;
