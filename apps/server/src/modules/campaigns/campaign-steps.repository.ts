import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { CampaignStepsTable } from '../../db/tables/campaigns.tables.ts';

export type CampaignStepRow = Selectable<CampaignStepsTable>;

export type CampaignStepValues = Partial<
  Pick<
    CampaignStepRow,
    'message' | 'redirect_to' | 'short_url_domain_id' | 'delay_minutes' | 'limit_cap' | 'send_by_minutes'
  >
>;

const fix = (r: CampaignStepRow): CampaignStepRow => ({
  ...r,
  id: Number(r.id),
  campaign_id: Number(r.campaign_id),
  short_url_domain_id: r.short_url_domain_id === null ? null : Number(r.short_url_domain_id),
});

/** `campaign_steps` of one team, in their order. */
export function createCampaignStepsRepository(db: Kysely<DB>) {
  return {
    async ofCampaign(teamId: number, campaignId: number, q: Kysely<DB> = db): Promise<CampaignStepRow[]> {
      const rows = await q
        .selectFrom('campaign_steps')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('campaign_id', '=', campaignId)
        .orderBy('position')
        .execute();
      return rows.map(fix);
    },

    async find(teamId: number, id: number, q: Kysely<DB> = db): Promise<CampaignStepRow | undefined> {
      const row = await q
        .selectFrom('campaign_steps')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? fix(row) : undefined;
    },

    /** Appends a step after the campaign's last one (the caller holds the campaign's row lock). */
    async append(tx: Kysely<DB>, teamId: number, campaignId: number, values: CampaignStepValues) {
      const row = await tx
        .insertInto('campaign_steps')
        .values({
          campaign_id: campaignId,
          team_id: teamId,
          position: sql<number>`(select coalesce(max(position), 0) + 1 from campaign_steps where campaign_id = ${campaignId})`,
          ...values,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return fix(row);
    },

    async update(tx: Kysely<DB>, teamId: number, id: number, values: CampaignStepValues) {
      const row = await tx
        .updateTable('campaign_steps')
        .set({ ...values, updated_at: sql`now()` })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return fix(row);
    },

    /** Deletes a step and closes the gap in the positions (the unique key is deferred). */
    async delete(tx: Kysely<DB>, teamId: number, step: CampaignStepRow) {
      await tx.deleteFrom('campaign_steps').where('team_id', '=', teamId).where('id', '=', step.id).execute();
      await tx
        .updateTable('campaign_steps')
        .set({ position: sql`position - 1` })
        .where('campaign_id', '=', step.campaign_id)
        .where('position', '>', step.position)
        .execute();
    },

    /** Copies a campaign's steps to another, as not sent. */
    async copy(tx: Kysely<DB>, teamId: number, from: number, to: number) {
      await sql`insert into campaign_steps
          (campaign_id, team_id, position, type, message, redirect_to, short_url_domain_id, delay_minutes, limit_cap, send_by_minutes)
        select ${to}, team_id, position, type, message, redirect_to, short_url_domain_id, delay_minutes, limit_cap, send_by_minutes
        from campaign_steps where campaign_id = ${from} and team_id = ${teamId}`.execute(tx);
    },
  };
}

export type CampaignStepsRepository = ReturnType<typeof createCampaignStepsRepository>;
