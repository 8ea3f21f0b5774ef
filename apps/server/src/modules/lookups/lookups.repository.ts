import { type Kysely, sql } from 'kysely';
import type { TLookup, TLookupStatusCode, TLookupType } from '@herald/shared/lookups/lookups.schemas';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

type Db = Kysely<DB>;

/** A lookup with its names, as the table and the live event show it (decision 040). */
interface ViewRow {
  id: string | number;
  type: TLookupType;
  source_id: string | number | null;
  source_name: string | null;
  list_id: string | number | null;
  list_name: string | null;
  gateway_id: string | number | null;
  gateway_name: string | null;
  status: number;
  paused_reason: string | null;
  phones: number;
  reused: number;
  looked_up: number;
  failed: number;
  cost: string | number;
  saved: string | number;
  rate_per_sec: number | null;
  currency: string;
  launched_by: string | number | null;
  campaign_step_id: string | number | null;
  created_at: Date | string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
}

const num = (v: string | number | null) => (v === null ? null : Number(v));
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function toLookup(r: ViewRow): TLookup {
  const done = Number(r.reused) + Number(r.looked_up) + Number(r.failed);
  const phones = Number(r.phones);
  const left = Math.max(0, phones - done);
  const status = Number(r.status) as TLookupStatusCode;
  const rate = r.rate_per_sec === null ? null : Number(r.rate_per_sec);
  return {
    id: Number(r.id),
    type: r.type,
    source: r.source_id === null ? null : { id: Number(r.source_id), name: r.source_name ?? '' },
    list: r.list_id === null ? null : { id: Number(r.list_id), name: r.list_name ?? '' },
    gateway: r.gateway_id === null ? null : { id: Number(r.gateway_id), name: r.gateway_name ?? '' },
    status,
    reason: status === 3 ? null : r.paused_reason,
    count: left,
    percent: phones === 0 ? (status === 3 ? 100 : 0) : Math.floor((100 * done) / phones),
    time_left: status === 1 && rate && rate > 0 ? Math.ceil(left / rate) : null,
    phones,
    reused: Number(r.reused),
    looked_up: Number(r.looked_up),
    failed: Number(r.failed),
    cost: Number(r.cost),
    saved: Number(r.saved),
    currency: r.currency,
    launched_by: num(r.launched_by),
    campaign_step_id: num(r.campaign_step_id),
    created_at: iso(r.created_at) as string,
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
  };
}

/** Sort fields the table offers, as columns of the view below. */
const ORDER: Record<string, string> = {
  id: 'k.id',
  status: 'k.status',
  created_at: 'k.created_at',
  updated_at: 'k.updated_at',
  source: 's.name',
  list: 'l.name',
  phones: 'k.phones',
};

const VIEW = sql`select k.id, k.type, k.source_id, s.name as source_name, k.list_id, l.name as list_name,
    k.gateway_id, g.name as gateway_name, k.status, k.paused_reason, k.phones, k.reused, k.looked_up,
    k.failed, k.cost, k.saved, k.rate_per_sec, t.balance_currency as currency, k.launched_by,
    k.campaign_step_id, k.created_at, k.started_at, k.completed_at
  from lookups k
  join teams t on t.id = k.team_id
  left join sources s on s.id = k.source_id
  left join lists l on l.id = k.list_id
  left join gateways g on g.id = k.gateway_id`;

export function createLookupsRepository(db: Db) {
  return {
    async views(teamId: number | null, ids: number[], on: Db = db): Promise<TLookup[]> {
      if (ids.length === 0) return [];
      const team = teamId === null ? sql`true` : sql`k.team_id = ${teamId}`;
      const r = await sql<ViewRow>`${VIEW} where ${team} and k.id = any(${ids}::bigint[]) order by k.id`.execute(on);
      return r.rows.map(toLookup);
    },

    async page(
      teamId: number,
      q: { offset: number; limit: number; search?: string; order?: { field: string; dir: 'asc' | 'desc' } },
    ): Promise<{ rows: TLookup[]; total: number }> {
      const search = q.search?.trim()
        ? sql`and (s.name ilike ${`%${escapeLike(q.search.trim())}%`} or l.name ilike ${`%${escapeLike(q.search.trim())}%`})`
        : sql``;
      const column = sql.raw(ORDER[q.order?.field ?? 'id'] ?? 'k.id');
      const dir = sql.raw(q.order?.dir === 'asc' ? 'asc' : 'desc');
      const [rows, total] = await Promise.all([
        sql<ViewRow>`${VIEW} where k.team_id = ${teamId} ${search}
          order by ${column} ${dir} nulls last, k.id ${dir} offset ${q.offset}::int limit ${q.limit}::int`.execute(db),
        sql<{ n: string }>`select count(*) as n from lookups k left join sources s on s.id = k.source_id
          left join lists l on l.id = k.list_id where k.team_id = ${teamId} ${search}`.execute(db),
      ]);
      return { rows: rows.rows.map(toLookup), total: Number(total.rows[0]?.n ?? 0) };
    },

    /** The team's lookups among `ids` with their status (another team's are left out). */
    async statuses(teamId: number, ids: number[], on: Db = db) {
      if (ids.length === 0) return [];
      const rows = await on
        .selectFrom('lookups')
        .select(['id', 'status', 'gateway_id', 'list_id', 'source_id', 'launched_by', 'phones'])
        .where('team_id', '=', teamId)
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status) as TLookupStatusCode }));
    },

    /** A list's lookup that has not completed: a new start reuses it. */
    async openForList(teamId: number, listId: number, on: Db = db) {
      const row = await on
        .selectFrom('lookups')
        .select(['id', 'status'])
        .where('team_id', '=', teamId)
        .where('list_id', '=', listId)
        .where('type', '=', 'list')
        .where('status', '<>', 3)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { id: Number(row.id), status: Number(row.status) as TLookupStatusCode } : null;
    },

    /** The team's results of these phones (`phone_lookups` rows). */
    async results(teamId: number, phones: string[]) {
      if (phones.length === 0) return [];
      return db
        .selectFrom('phone_lookups')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('phone', 'in', phones)
        .execute();
    },

    /** Running lookups of the team: the status summary. */
    async running(teamId: number) {
      const r = await sql<ViewRow>`${VIEW} where k.team_id = ${teamId} and k.status = 1`.execute(db);
      return r.rows.map(toLookup);
    },
  };
}

export type LookupsRepository = ReturnType<typeof createLookupsRepository>;
