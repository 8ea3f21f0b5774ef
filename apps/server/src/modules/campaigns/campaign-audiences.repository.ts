import { type Kysely, sql } from 'kysely';
import type { TCampaignAudience, TCampaignAudienceKind } from '@herald/shared/campaigns/campaigns.schemas';
import type { DB } from '../../db/schema.ts';

export type AudienceRef = { id: number; kind: TCampaignAudienceKind; ref_id: number };

/** `campaign_audiences` of one team, with the names of what they point at. */
export function createCampaignAudiencesRepository(db: Kysely<DB>) {
  return {
    async refs(teamId: number, campaignId: number, q: Kysely<DB> = db): Promise<AudienceRef[]> {
      const rows = await q
        .selectFrom('campaign_audiences')
        .select(['id', 'kind', 'ref_id'])
        .where('team_id', '=', teamId)
        .where('campaign_id', '=', campaignId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: Number(r.id), kind: r.kind, ref_id: Number(r.ref_id) }));
    },

    /** The audiences with their names; one whose segment, source or list was deleted is not shown. */
    async list(teamId: number, campaignId: number): Promise<Omit<TCampaignAudience, 'leads_count'>[]> {
      const rows = await sql<{
        id: number;
        kind: TCampaignAudienceKind;
        ref_id: number;
        name: string;
        source_id: number | null;
      }>`
        select a.id, a.kind, a.ref_id, coalesce(sg.name, so.name, li.name) as name, li.source_id
        from campaign_audiences a
        left join segments sg on a.kind = 'segment' and sg.id = a.ref_id and sg.team_id = a.team_id
        left join sources so on a.kind = 'source' and so.id = a.ref_id and so.team_id = a.team_id
        left join lists li on a.kind = 'list' and li.id = a.ref_id and li.team_id = a.team_id
        where a.team_id = ${teamId} and a.campaign_id = ${campaignId}
          and coalesce(sg.id, so.id, li.id) is not null
        order by a.id`.execute(db);
      return rows.rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        ref_id: Number(r.ref_id),
        name: r.name,
        source_id: r.source_id === null ? null : Number(r.source_id),
      }));
    },

    /** Which of these ids are the team's segments (root or not), sources or lists, with their names. */
    async existing(
      teamId: number,
      kind: TCampaignAudienceKind,
      ids: number[],
      q: Kysely<DB> = db,
    ): Promise<Map<number, string>> {
      const table = kind === 'segment' ? 'segments' : kind === 'source' ? 'sources' : 'lists';
      const rows = await q
        .selectFrom(table)
        .select(['id', 'name'])
        .where('team_id', '=', teamId)
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },

    /** Adds the refs not in the campaign yet; answers the ones added. */
    async add(tx: Kysely<DB>, teamId: number, campaignId: number, kind: TCampaignAudienceKind, ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await tx
        .insertInto('campaign_audiences')
        .values(ids.map((ref_id) => ({ campaign_id: campaignId, team_id: teamId, kind, ref_id })))
        .onConflict((oc) => oc.columns(['campaign_id', 'kind', 'ref_id']).doNothing())
        .returning(['id', 'ref_id'])
        .execute();
      return rows.map((r) => Number(r.ref_id));
    },

    async remove(tx: Kysely<DB>, teamId: number, campaignId: number, audienceId: number): Promise<AudienceRef | null> {
      const row = await tx
        .deleteFrom('campaign_audiences')
        .where('team_id', '=', teamId)
        .where('campaign_id', '=', campaignId)
        .where('id', '=', audienceId)
        .returning(['id', 'kind', 'ref_id'])
        .executeTakeFirst();
      return row ? { id: Number(row.id), kind: row.kind, ref_id: Number(row.ref_id) } : null;
    },

    async copy(tx: Kysely<DB>, teamId: number, from: number, to: number) {
      await sql`insert into campaign_audiences (campaign_id, team_id, kind, ref_id)
        select ${to}, team_id, kind, ref_id from campaign_audiences where campaign_id = ${from} and team_id = ${teamId}`.execute(
        tx,
      );
    },
  };
}

export type CampaignAudiencesRepository = ReturnType<typeof createCampaignAudiencesRepository>;
