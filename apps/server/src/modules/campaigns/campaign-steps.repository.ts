import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { CampaignStepsTable } from '../../db/tables/campaigns.tables.ts';
import type { TCampaignStep } from '@herald/shared/campaigns/campaigns.schemas';

export type CampaignStepRow = Selectable<CampaignStepsTable>;

export type CampaignStepValues = Partial<
  Pick<
    CampaignStepRow,
    | 'type'
    | 'message'
    | 'redirect_to'
    | 'short_url_domain_id'
    | 'delay_minutes'
    | 'limit_cap'
    | 'send_by_minutes'
    | 'gateway_id'
  >
>;

const fix = (r: CampaignStepRow): CampaignStepRow => ({
  ...r,
  id: Number(r.id),
  campaign_id: Number(r.campaign_id),
  short_url_domain_id: r.short_url_domain_id === null ? null : Number(r.short_url_domain_id),
  gateway_id: r.gateway_id === null ? null : Number(r.gateway_id),
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

    /** Lookup steps' lookups: how far each is and what it found (invalid, not a mobile). */
    async lookups(teamId: number, stepIds: number[]) {
      if (stepIds.length === 0) return new Map<number, NonNullable<TCampaignStep['lookup']>>();
      const r = await sql<{
        step_id: string;
        id: string;
        status: number;
        phones: number;
        done: string;
        invalid: string;
        not_mobile: string;
        reason: string | null;
      }>`select k.campaign_step_id as step_id, k.id, k.status, k.phones, k.paused_reason as reason,
          count(i.id) filter (where i.state in ('done', 'reused')) as done,
          count(pl.phone) filter (where i.state in ('done', 'reused') and pl.status_label = 'invalid') as invalid,
          count(pl.phone) filter (where i.state in ('done', 'reused') and pl.status_label <> 'invalid'
            and pl.carrier_type <> 'mobile') as not_mobile
        from lookups k left join lookup_items i on i.lookup_id = k.id
          left join phone_lookups pl on pl.team_id = k.team_id and pl.phone = i.phone
        where k.team_id = ${teamId} and k.campaign_step_id = any(${stepIds}::bigint[])
        group by k.id`.execute(db);
      return new Map(
        r.rows.map((l) => [
          Number(l.step_id),
          {
            id: Number(l.id),
            status: Number(l.status),
            phones: Number(l.phones),
            done: Number(l.done),
            invalid: Number(l.invalid),
            not_mobile: Number(l.not_mobile),
            reason: l.reason,
          },
        ]),
      );
    },

    /** Copies a campaign's steps to another, as not sent. */
    async copy(tx: Kysely<DB>, teamId: number, from: number, to: number) {
      await sql`insert into campaign_steps
          (campaign_id, team_id, position, type, message, redirect_to, short_url_domain_id, delay_minutes, limit_cap, send_by_minutes, gateway_id)
        select ${to}, team_id, position, type, message, redirect_to, short_url_domain_id, delay_minutes, limit_cap, send_by_minutes, gateway_id
        from campaign_steps where campaign_id = ${from} and team_id = ${teamId}`.execute(tx);
    },
  };
}

export type CampaignStepsRepository = ReturnType<typeof createCampaignStepsRepository>;
