import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
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

/** Message rows of the send path; every query names the team (reports: message-reports.repository.ts). */
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
  };
}
export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
