import { type Kysely, type Selectable, sql } from 'kysely';
import { CAMPAIGN_STATUSES, type TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { DB } from '../../db/schema.ts';
import type { CampaignsTable } from '../../db/tables/campaigns.tables.ts';
import { findPage, type PageWindow } from '../../db/find-page.ts';
import { escapeLike } from '../../db/sql-text.ts';

export type CampaignRow = Selectable<CampaignsTable> & {
  gateway_name: string | null;
  steps_count: number;
  audiences_count: number;
  recipients_count: number | null;
};

export type CampaignOrderField = 'id' | 'name' | 'status' | 'start_at' | 'created_at' | 'updated_at';

/** Settings a create or an update writes. */
export type CampaignValues = Partial<
  Pick<
    Selectable<CampaignsTable>,
    | 'name'
    | 'gateway_id'
    | 'sender'
    | 'timezone'
    | 'start_at'
    | 'frequency_per_minute'
    | 'quiet_hours'
    | 'quiet_from'
    | 'quiet_to'
    | 'skip_invalid_phones'
    | 'launched_by'
    | 'paused_reason'
  >
>;

/** `campaigns` of one team; every read and write names the team. */
export function createCampaignsRepository(db: Kysely<DB>) {
  const withCounts = (q: Kysely<DB> = db) =>
    q
      .selectFrom('campaigns as c')
      .leftJoin('gateways as g', (j) => j.onRef('g.id', '=', 'c.gateway_id').onRef('g.team_id', '=', 'c.team_id'))
      .selectAll('c')
      .select([
        'g.name as gateway_name',
        sql<number>`(select count(*) from campaign_steps s where s.campaign_id = c.id)`.as('steps_count'),
        sql<number>`(select count(*) from campaign_audiences a where a.campaign_id = c.id)`.as('audiences_count'),
        // From the statistics' recipients summary (decision 037), not a count of 1,000,000 rows.
        sql<number | null>`case when c.started_at is null then null else coalesce((select x.n
          from campaign_statistics_recipients x where x.campaign_id = c.id and x.reason = ''), 0) end`.as(
          'recipients_count',
        ),
      ]);

  const fix = (r: CampaignRow): CampaignRow => ({
    ...r,
    id: Number(r.id),
    team_id: Number(r.team_id),
    steps_count: Number(r.steps_count),
    audiences_count: Number(r.audiences_count),
    recipients_count: r.recipients_count === null ? null : Number(r.recipients_count),
  });

  return {
    async page(
      teamId: number,
      args: PageWindow<CampaignOrderField> & { search?: string; status?: TCampaignStatus },
    ): Promise<{ rows: CampaignRow[]; total: number }> {
      let q = db.selectFrom('campaigns').where('team_id', '=', teamId);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      if (args.status) q = q.where('status', '=', args.status);
      const { rows, total } = await findPage(q, (s) => s.select('id'), args);
      if (rows.length === 0) return { rows: [], total };
      const full = await withCounts()
        .where('c.team_id', '=', teamId)
        .where(
          'c.id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const byId = new Map(full.map((r) => [Number(r.id), fix(r as CampaignRow)]));
      return { rows: rows.map((r) => byId.get(Number(r.id))).filter((r): r is CampaignRow => !!r), total };
    },

    async aggregations(teamId: number): Promise<Record<TCampaignStatus, number>> {
      const rows = await db
        .selectFrom('campaigns')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('team_id', '=', teamId)
        .groupBy('status')
        .execute();
      const out = Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, 0])) as Record<TCampaignStatus, number>;
      for (const r of rows) out[r.status] = Number(r.n);
      return out;
    },

    async find(teamId: number, id: number, q: Kysely<DB> = db): Promise<CampaignRow | undefined> {
      const row = await withCounts(q).where('c.team_id', '=', teamId).where('c.id', '=', id).executeTakeFirst();
      return row ? fix(row as CampaignRow) : undefined;
    },

    /** The row locked for a change in the caller's transaction. */
    async lock(tx: Kysely<DB>, teamId: number, id: number) {
      return tx
        .selectFrom('campaigns')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    async insert(tx: Kysely<DB>, teamId: number, userId: number, values: CampaignValues & { name: string }) {
      const row = await tx
        .insertInto('campaigns')
        .values({ team_id: teamId, user_id: userId, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },

    async update(tx: Kysely<DB>, teamId: number, id: number, values: CampaignValues & { status?: TCampaignStatus }) {
      await tx
        .updateTable('campaigns')
        .set({ ...values, updated_at: sql`now()`, version: sql`version + 1` })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
    },

    /** Deletes the team's campaigns of these ids that are not being sent; answers the ids deleted. */
    async delete(tx: Kysely<DB>, teamId: number, ids: number[]): Promise<number[]> {
      const rows = await tx
        .deleteFrom('campaigns')
        .where('team_id', '=', teamId)
        .where('id', 'in', ids)
        .where('status', 'not in', ['processing', 'active'])
        .returning('id')
        .execute();
      return rows.map((r) => Number(r.id));
    },
  };
}

export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
