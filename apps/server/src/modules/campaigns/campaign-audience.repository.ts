import { type Kysely, sql } from 'kysely';
import type { TCampaignAudienceSortField } from '@herald/shared/campaigns/campaign-audience.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import type { TMessageState } from '@herald/shared/messages/messages.schemas';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

/** One recipient of the page. */
export interface RecipientRow {
  lead_id: number;
  phone: string | null;
  skip_reason: string | null;
}

/** One message row of a recipient, with what its cost and its clicks are. */
export interface RecipientMessageRow {
  lead_id: number;
  step_id: number;
  state: TMessageState;
  status: TMessageStatus | null;
  error_code: string | null;
  submitted_at: Date | null;
  cost: number;
  clicked: boolean;
}

/**
 * A row's cost: what was charged for it and not given back. Rows are charged when claimed; a row
 * that ends failed is refunded, or was refused before any charge (decision 024), so it costs nothing.
 */
export const ROW_COST = sql<number>`case when m.refunded_at is null and m.state in ('claimed', 'submitted', 'unknown')
  then m.price else 0 end`;

/** A human opened one of the row's links (decision 021: `first_clicked_at` is the first human click). */
export const ROW_CLICKED = sql<boolean>`exists (select 1 from short_links l where l.message_id = m.id
  and l.kind = 'link' and l.first_clicked_at is not null)`;

/**
 * A search over recipients: the phone (its digits, with or without `+`) or any value the lead holds.
 */
function searchedBy(teamId: number, search: string | undefined) {
  const needle = search?.trim();
  if (!needle) return sql``;
  return sql`and (r.phone like ${`%${escapeLike(needle.replace(/^\+/, ''))}%`}
    or exists (select 1 from lead_values v where v.team_id = ${teamId} and v.lead_id = r.lead_id
      and v.value ilike ${`%${escapeLike(needle)}%`}))`;
}

/** The campaign's recipients (`campaign_recipients`) and their messages, read for one team. */
export function createCampaignAudienceRepository(db: Kysely<DB>) {
  /** The messages of one recipient of the campaign, through `messages_lead_idx`. */
  const ofRecipient = (teamId: number) =>
    sql`from messages m where m.team_id = ${teamId} and m.campaign_id = r.campaign_id and m.lead_id = r.lead_id`;
  const orderBy = (teamId: number): Record<TCampaignAudienceSortField, ReturnType<typeof sql>> => ({
    lead_id: sql`r.lead_id`,
    phone: sql`r.phone`,
    sent_at: sql`(select min(m.submitted_at) ${ofRecipient(teamId)})`,
    cost: sql`coalesce((select sum(${ROW_COST}) ${ofRecipient(teamId)}), 0)`,
    clicked: sql`(select count(*) ${ofRecipient(teamId)} and ${ROW_CLICKED})`,
  });

  return {
    /** The next `limit` recipients after lead `after`, by lead id (an export's keyset walk). */
    async after(teamId: number, campaignId: number, args: { after: number; limit: number; search?: string }) {
      const rows = await sql<RecipientRow>`select r.lead_id, r.phone, r.skip_reason from campaign_recipients r
        where r.team_id = ${teamId} and r.campaign_id = ${campaignId} and r.lead_id > ${args.after}
          ${searchedBy(teamId, args.search)}
        order by r.lead_id limit ${args.limit}`.execute(db);
      return rows.rows.map((r) => ({ ...r, lead_id: Number(r.lead_id) }));
    },

    async count(teamId: number, campaignId: number, search?: string): Promise<number> {
      const r = await sql<{ n: string | number }>`select count(*) as n from campaign_recipients r
        where r.team_id = ${teamId} and r.campaign_id = ${campaignId} ${searchedBy(teamId, search)}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },

    /**
     * A page of recipients. `search` matches the recipient's phone (its digits, with or without
     * `+`) or any value the lead holds; ties fall back to the lead id, so pages never overlap.
     */
    async page(
      teamId: number,
      campaignId: number,
      args: {
        offset: number;
        limit: number;
        search?: string;
        order: { field: TCampaignAudienceSortField; dir: 'asc' | 'desc' };
      },
    ): Promise<{ rows: RecipientRow[]; total: number }> {
      const searched = searchedBy(teamId, args.search);
      const where = sql`r.team_id = ${teamId} and r.campaign_id = ${campaignId} ${searched}`;
      const dir = args.order.dir === 'asc' ? sql`asc` : sql`desc`;
      // Nulls (no phone, never sent) last whichever way, so the first page shows those that have one.
      const [rows, total] = await Promise.all([
        sql<RecipientRow>`select r.lead_id, r.phone, r.skip_reason from campaign_recipients r where ${where}
          order by ${orderBy(teamId)[args.order.field]} ${dir} nulls last, r.lead_id ${dir}
          offset ${args.offset} limit ${args.limit}`.execute(db),
        sql<{ n: string | number }>`select count(*) as n from campaign_recipients r where ${where}`.execute(db),
      ]);
      return {
        rows: rows.rows.map((r) => ({ ...r, lead_id: Number(r.lead_id) })),
        total: Number(total.rows[0]?.n ?? 0),
      };
    },

    /** Every message row the campaign has for these leads. */
    async messagesOf(teamId: number, campaignId: number, leadIds: number[]): Promise<RecipientMessageRow[]> {
      if (leadIds.length === 0) return [];
      const rows = await sql<RecipientMessageRow>`select m.lead_id, m.campaign_step_id as step_id, m.state, m.status,
          m.error_code, m.submitted_at, ${ROW_COST} as cost, ${ROW_CLICKED} as clicked
        from messages m
        where m.team_id = ${teamId} and m.campaign_id = ${campaignId} and m.lead_id = any(${leadIds}::bigint[])`.execute(
        db,
      );
      return rows.rows.map((r) => ({
        ...r,
        lead_id: Number(r.lead_id),
        step_id: Number(r.step_id),
        cost: Number(r.cost),
        clicked: r.clicked === true,
      }));
    },

    /**
     * The list's figures of these campaigns of the team, one grouped read of each campaign's
     * messages (through `messages_campaign_idx`) and of its clicked links.
     */
    async figures(teamId: number, ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await sql<{
        id: string | number;
        records: string | number;
        sms_steps: string | number;
        sent: string | number;
        delivered: string | number;
        cost: string | number;
        clicked: string | number;
      }>`select c.id,
          (select count(*) from campaign_recipients r where r.campaign_id = c.id and r.skip_reason is null) as records,
          (select count(*) from campaign_steps s where s.campaign_id = c.id and s.type = 'sms') as sms_steps,
          coalesce(x.sent, 0) as sent, coalesce(x.delivered, 0) as delivered,
          -- What the campaign spent, as its statistics say: its messages and its lookup steps' lookups.
          coalesce(x.cost, 0) + coalesce((select sum(k.cost) from lookups k join campaign_steps s on s.id = k.campaign_step_id
            where k.team_id = ${teamId} and s.campaign_id = c.id), 0) as cost,
          (select count(distinct m.lead_id) from messages m join short_links l on l.message_id = m.id
            where m.team_id = ${teamId} and m.campaign_id = c.id and l.kind = 'link'
              and l.first_clicked_at is not null) as clicked
        from campaigns c
        left join lateral (
          select count(*) filter (where m.state = 'submitted') as sent,
            count(*) filter (where m.state = 'submitted' and m.status = 'delivered') as delivered,
            sum(${ROW_COST}) as cost
          from messages m where m.team_id = ${teamId} and m.campaign_id = c.id
        ) x on true
        where c.team_id = ${teamId} and c.id = any(${ids}::bigint[])`.execute(db);
      return rows.rows.map((r) => ({
        id: Number(r.id),
        records: Number(r.records),
        smsSteps: Number(r.sms_steps),
        sent: Number(r.sent),
        delivered: Number(r.delivered),
        cost: Number(r.cost),
        clicked: Number(r.clicked),
      }));
    },
  };
}

export type CampaignAudienceRepository = ReturnType<typeof createCampaignAudienceRepository>;
