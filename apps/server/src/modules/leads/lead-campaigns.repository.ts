import { type Kysely, sql } from 'kysely';
import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { TLeadLogEntry } from '@herald/shared/leads/leads.schemas';
import type { DB } from '../../db/schema.ts';

/**
 * A campaign message shows in the Timeline once its gateway call began (sent, refused, or unknown
 * and being reconciled); one still queued or skipped before the call never reached the lead.
 */
const REACHED_GATEWAY = sql<boolean>`m.kind = 'campaign_step' and m.called_at is not null and m.state in ('submitted', 'unknown', 'failed')`;

/**
 * What the lead page shows of campaigns (read only; the campaigns module writes these tables):
 * the campaigns that took the lead as a recipient, and the messages they sent it.
 */
export function createLeadCampaignsRepository(db: Kysely<DB>) {
  return {
    /** Campaigns whose fixed recipients hold the lead (not skipped), newest first. */
    async findByLead(teamId: number, leadId: number, limit: number) {
      const rows = await db
        .selectFrom('campaign_recipients as r')
        .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
        .select(['c.id', 'c.name', 'c.status'])
        .where('r.team_id', '=', teamId)
        .where('c.team_id', '=', teamId)
        .where('r.lead_id', '=', leadId)
        .where('r.skip_reason', 'is', null)
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: Number(r.id), name: r.name, status: r.status as TCampaignStatus }));
    },

    /** The SQL of the lead's campaign messages as Timeline keys: `id` and when it went (`at`). */
    timelineKeys(teamId: number, leadId: number, since: Date | null) {
      return sql<{ src: 'campaign'; id: number; at: Date }>`select 'campaign' as src, m.id,
          coalesce(m.submitted_at, m.called_at) as at
        from messages m
        where m.team_id = ${teamId} and m.lead_id = ${leadId} and ${REACHED_GATEWAY}
          ${since ? sql`and coalesce(m.submitted_at, m.called_at) >= ${since}` : sql``}`;
    },

    /** These campaign messages as Timeline entries: the text sent, the campaign and step, the message's details. */
    async entries(teamId: number, ids: number[]): Promise<Map<number, TLeadLogEntry>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('teams as t', 't.id', 'm.team_id')
        .innerJoin('campaigns as c', 'c.id', 'm.campaign_id')
        .innerJoin('campaign_steps as s', 's.id', 'm.campaign_step_id')
        .leftJoin('gateways as w', (j) => j.onRef('w.id', '=', 'm.gateway_id').onRef('w.team_id', '=', 'm.team_id'))
        .select([
          'm.id',
          'm.phone',
          'm.text',
          'm.sender',
          'm.parts',
          'm.price',
          'm.status',
          'm.state',
          'm.called_at',
          'm.submitted_at',
          'w.name as gateway',
          't.balance_currency',
          'c.id as campaign_id',
          'c.name as campaign_name',
          's.position',
        ])
        .where('m.team_id', '=', teamId)
        .where('m.id', 'in', ids)
        .execute();
      return new Map(
        rows.map((r): [number, TLeadLogEntry] => [
          Number(r.id),
          {
            id: Number(r.id),
            created_at: new Date(r.submitted_at ?? r.called_at ?? 0).toISOString(),
            type: 'campaign_message',
            // A refused call is a failed send; a delivery report later adds its own entry.
            action: r.state === 'failed' ? 'campaign_sms_failed' : 'campaign_sms_sent',
            filename: null,
            diff_log: [
              {
                action: 'sms_sent',
                lead_attribute_name: 'sms',
                lead_attribute_value: r.text,
                value_from: r.phone,
                value_to: null,
              },
            ],
            message: {
              id: Number(r.id),
              from: r.sender,
              gateway: r.gateway,
              parts: r.parts,
              price: Number(r.price),
              currency: r.balance_currency,
              status: r.status,
            },
            campaign: { id: Number(r.campaign_id), name: r.campaign_name, step: r.position },
          },
        ]),
      );
    },
  };
}

export type LeadCampaignsRepository = ReturnType<typeof createLeadCampaignsRepository>;
