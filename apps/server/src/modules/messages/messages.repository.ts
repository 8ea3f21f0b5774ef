import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import type { TSentMessage } from '@herald/shared/messages/messages.schemas';
import type { DB } from '../../db/schema.ts';
import type { MessagesTable } from '../../db/tables/messages.tables.ts';

export type MessageRow = Selectable<MessagesTable>;
type Db = Kysely<DB>;

export function toSentMessage(row: MessageRow): TSentMessage {
  return {
    id: Number(row.id),
    kind: row.kind,
    lead_id: row.lead_id === null ? null : Number(row.lead_id),
    phone: row.phone,
    gateway_id: row.gateway_id === null ? null : Number(row.gateway_id),
    from: row.sender,
    text: row.text,
    parts: row.parts,
    encoding: row.encoding,
    price: Number(row.price),
    state: row.state,
    status: row.status,
    provider_message_id: row.provider_message_id,
    error_code: row.error_code,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Message rows and opt-outs; every query names the team. */
export function createMessagesRepository(db: Db) {
  return {
    /** The row, or null when a row with this client key exists already (a retried request). */
    async insert(tx: Db, row: Insertable<MessagesTable>): Promise<MessageRow | null> {
      const inserted = await tx
        .insertInto('messages')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['team_id', 'user_id', 'client_key']).where('client_key', 'is not', null).doNothing(),
        )
        .returningAll()
        .executeTakeFirst();
      return inserted ?? null;
    },

    findByClientKey(teamId: number, userId: number, clientKey: string, tx: Db = db) {
      return tx
        .selectFrom('messages')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .where('client_key', '=', clientKey)
        .executeTakeFirst();
    },

    find(teamId: number, id: number, tx: Db = db) {
      return tx
        .selectFrom('messages')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The send path's outcome; only a row still claimed moves (a late sweep may have made it unknown). */
    async settle(
      teamId: number,
      id: number,
      change: {
        state: 'submitted' | 'unknown' | 'failed';
        providerMessageId?: string | null;
        errorCode?: string | null;
        errorMessage?: string | null;
      },
    ): Promise<MessageRow | undefined> {
      return db
        .updateTable('messages')
        .set({
          state: change.state,
          provider_message_id: change.providerMessageId ?? null,
          error_code: change.errorCode ?? null,
          error_message: change.errorMessage ?? null,
          lease_until: null,
          submitted_at: change.state === 'submitted' ? sql`now()` : null,
          updated_at: sql`now()`,
        })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .where('state', 'in', ['claimed', 'unknown'])
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * The rows a batch of reports names, locked so two batches touching one message take turns;
     * in id order, so two batches lock their common rows in the same order and cannot deadlock.
     */
    forReports(tx: Db, teamId: number, gatewayId: number, providerMessageIds: string[]) {
      return tx
        .selectFrom('messages')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('gateway_id', '=', gatewayId)
        .where('provider_message_id', 'in', providerMessageIds)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    /**
     * Moves many rows and appends their Timeline entries in one statement (a report batch's one
     * write). `reconciled`: a report proved an unknown send was taken. Entries go only to leads that
     * still exist, locked for share so none is deleted meanwhile (the Timeline has no foreign key).
     */
    async moveStatuses(
      tx: Db,
      teamId: number,
      changes: Array<{ id: number; status: TMessageStatus; errorCode: string | null; reconciled: boolean }>,
      timeline: Array<{ leadId: number; action: string; diffLog: string }>,
    ): Promise<void> {
      if (changes.length === 0) return;
      await sql`
        with v as (
          select * from unnest(${changes.map((c) => c.id)}::bigint[], ${changes.map((c) => c.status)}::text[],
            ${changes.map((c) => c.errorCode)}::text[], ${changes.map((c) => c.reconciled)}::boolean[])
            as v(id, status, error_code, reconciled)
        ), moved as (
          update messages m set status = v.status, status_at = now(), error_code = v.error_code, updated_at = now(),
            state = case when v.reconciled then 'submitted' else m.state end
          from v where m.team_id = ${teamId} and m.id = v.id
        ), e as (
          select * from unnest(${timeline.map((e) => e.leadId)}::bigint[], ${timeline.map((e) => e.action)}::text[],
            ${timeline.map((e) => e.diffLog)}::text[]) with ordinality as e(lead_id, action, diff_log, n)
        ), alive as (
          select id from leads where team_id = ${teamId} and id in (select lead_id from e) for share
        )
        insert into lead_logs (team_id, user_id, lead_id, type, action, diff_log)
        select ${teamId}, null, e.lead_id, 'message', e.action, e.diff_log::jsonb
        from e join alive on alive.id = e.lead_id order by e.n`.execute(tx);
    },

    /**
     * Claims whose lease ran out: the process died between writing the row and hearing the
     * gateway. Whether the gateway got it cannot be known, so they become unknown, never pending.
     */
    async expireClaims(): Promise<MessageRow[]> {
      return db
        .updateTable('messages')
        .set({ state: 'unknown', lease_until: null, updated_at: sql`now()` })
        .where('state', 'in', ['claimed', 'pending'])
        .where('lease_until', '<', sql<Date>`now()`)
        .returningAll()
        .execute();
    },

    /** Whether the team may not send to this phone: an opt-out, a banned value, a blacklisted lead. */
    async isBlocked(teamId: number, phone: string, tx: Db = db): Promise<boolean> {
      const row = await sql<{ blocked: boolean }>`
        select exists (select 1 from message_opt_outs where team_id = ${teamId} and phone = ${phone})
          or exists (
            select 1 from lead_values v join leads l on l.id = v.lead_id
            where v.team_id = ${teamId} and v.type = 'phone' and v.value = ${phone}
              and (v.ban is true or l.status = 'blacklisted')
          ) as blocked`.execute(tx);
      return Boolean(row.rows[0]?.blocked);
    },

    /** The team's leads holding this phone, oldest first. */
    async leadsWithPhone(teamId: number, phone: string, tx: Db = db): Promise<number[]> {
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

    async addOptOut(tx: Db, teamId: number, phone: string, gatewayId: number, reason: string): Promise<void> {
      await tx
        .insertInto('message_opt_outs')
        .values({ team_id: teamId, phone, gateway_id: gatewayId, reason })
        .onConflict((oc) => oc.columns(['team_id', 'phone']).doNothing())
        .execute();
    },
  };
}
export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
