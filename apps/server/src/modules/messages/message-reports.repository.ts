import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { MessageRow } from './messages.repository.ts';

type Db = Kysely<DB>;

/** The row a callback's URL names (`?m=`, or AlphaSMS's signed key), and whether a signature covers it. */
export interface ReportRow {
  id: number;
  signed: boolean;
}

/** A verified report as the gateways hand it over: the provider's id, and the row its URL named. */
export type IncomingReport = TStatusReport & { row?: ReportRow | null };

export interface StatusChange {
  id: number;
  status: TMessageStatus;
  errorCode: string | null;
  /** A report proved an unknown send was taken: the row becomes `submitted`. */
  reconciled: boolean;
  /** The provider's id the row learns from this report (it had none). */
  bind: string | null;
}

/** A kept report, taken back to be applied, with the gateway it came through. */
export type TakenReport = IncomingReport & { gatewayId: number };

/**
 * What delivery reports read and write of messages (decision 025): the rows a batch names, their
 * moves, and the reports kept until their row settles. Every query names the team.
 */
export function createMessageReportsRepository(db: Db) {
  return {
    /**
     * The rows a batch of reports names, by the provider's id or by the row id in the callback's
     * URL, locked so two batches touching one message take turns; in id order, so two batches lock
     * their common rows in the same order and cannot deadlock.
     */
    forReports(tx: Db, teamId: number, gatewayId: number, providerMessageIds: string[], rowIds: number[]) {
      return tx
        .selectFrom('messages')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('gateway_id', '=', gatewayId)
        .where((eb) => {
          const named = [];
          if (providerMessageIds.length > 0) named.push(eb('provider_message_id', 'in', providerMessageIds));
          if (rowIds.length > 0) named.push(eb('id', 'in', rowIds));
          return named.length > 0 ? eb.or(named) : eb.val(false);
        })
        .orderBy('id')
        .forUpdate()
        .execute() as Promise<MessageRow[]>;
    },

    /** Moves many rows in one statement (a report batch's one write to messages). */
    async moveStatuses(tx: Db, teamId: number, changes: StatusChange[]): Promise<void> {
      if (changes.length === 0) return;
      await sql`
        update messages m set status = v.status, status_at = now(), error_code = v.error_code, updated_at = now(),
          state = case when v.reconciled then 'submitted' else m.state end,
          provider_message_id = coalesce(m.provider_message_id, v.bind),
          submitted_at = case when v.reconciled then coalesce(m.submitted_at, now()) else m.submitted_at end
        from unnest(${changes.map((c) => c.id)}::bigint[], ${changes.map((c) => c.status)}::text[],
          ${changes.map((c) => c.errorCode)}::text[], ${changes.map((c) => c.reconciled)}::boolean[],
          ${changes.map((c) => c.bind)}::text[]) as v(id, status, error_code, reconciled, bind)
        where m.team_id = ${teamId} and m.id = v.id`.execute(tx);
    },

    /** The gateway of each of these rows (rows whose gateway is gone are left out). */
    async gatewaysOf(tx: Db, teamId: number, rowIds: number[]): Promise<Array<{ id: number; gatewayId: number }>> {
      const rows = await tx
        .selectFrom('messages')
        .select(['id', 'gateway_id'])
        .where('team_id', '=', teamId)
        .where('id', 'in', rowIds)
        .where('gateway_id', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: Number(r.id), gatewayId: Number(r.gateway_id) }));
    },

    /** Keeps reports whose row cannot take them yet (still being sent, or not known by this id). */
    async keep(tx: Db, teamId: number, gatewayId: number, reports: IncomingReport[]): Promise<void> {
      if (reports.length === 0) return;
      await tx
        .insertInto('message_reports_kept')
        .values(
          reports.map((r) => ({
            team_id: teamId,
            gateway_id: gatewayId,
            message_id: r.row?.id ?? null,
            row_signed: r.row?.signed ?? false,
            provider_message_id: r.providerMessageId,
            status: r.status,
            provider_status: r.providerStatus,
            error_code: r.errorCode,
            reported_at: r.at,
          })),
        )
        .execute();
    },

    /**
     * Takes (deletes and returns, oldest first) the kept reports of these rows: those whose URL
     * named one of them, and those carrying a provider id one of them holds. Deleted in the
     * transaction that applies them, so two processes never both apply one.
     */
    async takeKept(tx: Db, teamId: number, rowIds: number[], gatewayId: number | null = null): Promise<TakenReport[]> {
      if (rowIds.length === 0) return [];
      const { rows } = await sql<{
        gateway_id: number;
        message_id: number | null;
        row_signed: boolean;
        provider_message_id: string;
        status: TMessageStatus;
        provider_status: string;
        error_code: string | null;
        reported_at: Date;
      }>`
        delete from message_reports_kept k
        where k.team_id = ${teamId} and (${gatewayId}::bigint is null or k.gateway_id = ${gatewayId}::bigint) and (
          k.message_id = any(${rowIds}::bigint[])
          or (k.gateway_id, k.provider_message_id) in (
            select m.gateway_id, m.provider_message_id from messages m
            where m.team_id = ${teamId} and m.id = any(${rowIds}::bigint[]) and m.provider_message_id is not null))
        returning k.id, k.gateway_id, k.message_id, k.row_signed, k.provider_message_id, k.status,
          k.provider_status, k.error_code, k.reported_at`.execute(tx);
      return rows
        .map((k) => ({
          gatewayId: Number(k.gateway_id),
          providerMessageId: k.provider_message_id,
          status: k.status,
          providerStatus: k.provider_status,
          errorCode: k.error_code,
          at: new Date(k.reported_at),
          row: k.message_id === null ? null : { id: Number(k.message_id), signed: k.row_signed },
        }))
        .sort((a, b) => a.at.getTime() - b.at.getTime());
    },

    /**
     * Rows that settled while reports for them were kept (the send that settled them did not say
     * so, or its process died): what the sweep applies. Up to `limit` rows, grouped by team.
     */
    async settledWithKept(limit: number): Promise<Array<{ teamId: number; rowIds: number[] }>> {
      const { rows } = await sql<{ team_id: number; id: number }>`
        select distinct m.team_id, m.id from message_reports_kept k
        join messages m on m.team_id = k.team_id and m.gateway_id = k.gateway_id
          and (m.id = k.message_id or m.provider_message_id = k.provider_message_id)
        where m.state not in ('pending', 'claimed')
        limit ${limit}`.execute(db);
      const byTeam = new Map<number, number[]>();
      for (const r of rows) byTeam.set(Number(r.team_id), [...(byTeam.get(Number(r.team_id)) ?? []), Number(r.id)]);
      return [...byTeam].map(([teamId, rowIds]) => ({ teamId, rowIds }));
    },

    /** Kept reports no row took in `days` days: for messages this app does not know (or no longer has). */
    async dropStaleKept(days: number): Promise<number> {
      const r = await db
        .deleteFrom('message_reports_kept')
        .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** The team's leads holding this phone, oldest first. */
    async leadsWithPhone(tx: Db, teamId: number, phone: string): Promise<number[]> {
      const rows = await tx
        .selectFrom('lead_values')
        .select('lead_id')
        .distinct()
        .where('team_id', '=', teamId)
        .where('type', '=', 'phone')
        .where('value', '=', phone)
        .orderBy('lead_id')
        .execute();
      return rows.map((r) => Number(r.lead_id));
    },

    /**
     * Records a reply once: false when the provider's id was heard before (a replayed event), so
     * nothing else is written for it.
     */
    async recordInbound(
      tx: Db,
      reply: {
        teamId: number;
        gatewayId: number;
        providerMessageId: string | null;
        phone: string;
        text: string;
        optOut: boolean;
      },
    ): Promise<boolean> {
      const inserted = await sql<{ id: number }>`
        insert into message_inbound (team_id, gateway_id, provider_message_id, phone, text, opt_out)
        values (${reply.teamId}, ${reply.gatewayId}, ${reply.providerMessageId}, ${reply.phone}, ${reply.text}, ${reply.optOut})
        on conflict (gateway_id, provider_message_id) where provider_message_id is not null do nothing
        returning id`.execute(tx);
      return inserted.rows.length > 0;
    },
  };
}
export type MessageReportsRepository = ReturnType<typeof createMessageReportsRepository>;
