import { type Kysely, sql } from 'kysely';
import type { TMessageKind } from '@herald/shared/messages/messages.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import type { DB } from '../../db/schema.ts';
import { claimDue, expireLeases } from '../../jobs/work-claims.ts';
import type { MessageRow } from './messages.repository.ts';

type Db = Kysely<DB>;

/** A row to queue: rendered already (its text is what goes out), charged when it is claimed. */
export interface Recipient {
  teamId: number;
  userId: number;
  leadId: number | null;
  kind: TMessageKind;
  campaignId?: number | null;
  campaignStepId?: number | null;
  phone: string;
  gatewayId: number;
  sender: string | null;
  text: string;
  parts: number;
  encoding: string;
  /** The charge's idempotency key: one per message, replayed on every claim of the row. */
  chargeKey: string;
  notBefore?: Date;
}

/** What one gateway call left a claimed row as; `attempt`: the claim it answers (a later claim's row is not moved). */
export type Outcome = {
  attempt?: number;
} /** `status` null: the caller applies the first status through the report path itself. */ & (
  | { id: number; state: 'submitted'; providerMessageId: string; status: TMessageStatus | null }
  | { id: number; state: 'failed' | 'unknown'; errorCode: string; errorMessage: string }
  /** Not taken (a 429, a refused connection): due again after `delayMs`. */
  | { id: number; state: 'pending'; delayMs: number; errorCode: string; errorMessage: string; rateLimited?: boolean }
);

/** The send path's writes to `messages` (decision 024): queue, claim, stamp the call, settle. */
export function createSendRowsRepository(db: Db) {
  return {
    /** Queues pending rows in bulk; a row whose charge key or (step, phone) exists already is skipped. */
    async insertRecipients(tx: Db, rows: Recipient[]): Promise<number> {
      let inserted = 0;
      for (let i = 0; i < rows.length; i += 2_000) {
        const chunk = rows.slice(i, i + 2_000);
        const result = await tx
          .insertInto('messages')
          .values(
            chunk.map((r) => ({
              team_id: r.teamId,
              user_id: r.userId,
              lead_id: r.leadId,
              kind: r.kind,
              campaign_id: r.campaignId ?? null,
              campaign_step_id: r.campaignStepId ?? null,
              phone: r.phone,
              gateway_id: r.gatewayId,
              sender: r.sender,
              text: r.text,
              parts: r.parts,
              encoding: r.encoding,
              charge_key: r.chargeKey,
              state: 'pending' as const,
              not_before: r.notBefore ?? sql<Date>`now()`,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return inserted;
    },

    /** Teams and gateways with due pending rows (a dispatch serves each in turn). */
    async dueGateways(limit = 100): Promise<Array<{ teamId: number; gatewayId: number | null }>> {
      const rows = await sql<{ team_id: string; gateway_id: string | null }>`
        select distinct team_id, gateway_id from messages
        where state = 'pending' and not_before <= now() limit ${limit}::int`.execute(db);
      return rows.rows.map((r) => ({
        teamId: Number(r.team_id),
        gatewayId: r.gateway_id === null ? null : Number(r.gateway_id),
      }));
    },

    claim(tx: Db, teamId: number, gatewayId: number, limit: number, leaseMs: number): Promise<MessageRow[]> {
      return claimDue<MessageRow>(tx, {
        table: 'messages',
        filter: sql`team_id = ${teamId} and gateway_id = ${gatewayId}`,
        limit,
        leaseMs,
      });
    },

    /**
     * Claimed rows whose recipient is gone since they were queued — the phone opted out (any
     * message), or a campaign's lead was deleted, blacklisted or its phone banned — end `failed`
     * with the reason as the campaign engine names it (`campaign-engine-rows.ts`), never called.
     */
    async failLeft(tx: Db, ids: number[]): Promise<MessageRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await sql<MessageRow>`
        with left_rows as (
          select m.id,
            exists (select 1 from message_opt_outs o where o.team_id = m.team_id and o.phone = m.phone) as opted_out
          from messages m
          where m.id = any(${ids}::bigint[]) and m.state = 'claimed'
        ), gone as (
          select l.id, case
            when l.opted_out then 'skipped_opted_out'
            when m.lead_id is null or not exists (select 1 from leads d where d.id = m.lead_id) then 'skipped_deleted'
            else 'skipped_blacklisted' end as code
          from left_rows l join messages m on m.id = l.id
          where l.opted_out or (m.campaign_id is not null and (
            m.lead_id is null
            or not exists (select 1 from leads d where d.id = m.lead_id and d.status <> 'blacklisted')
            or exists (select 1 from lead_values b
              where b.team_id = m.team_id and b.type = 'phone' and b.value = m.phone and b.ban is true)))
        )
        update messages m set state = 'failed', lease_until = null, updated_at = now(),
          error_code = gone.code, error_message = 'recipient left before the send'
        from gone where m.id = gone.id
        returning m.*`.execute(tx);
      return rows;
    },

    /** Claims whose lease ran out: not yet called → pending, called → unknown. */
    expire(): Promise<MessageRow[]> {
      return expireLeases<MessageRow>(db, { table: 'messages', policy: 'unknown' });
    },

    /** Pending rows of a gateway that is gone: failed, for their charge to be given back. */
    async failOrphans(tx: Db, teamId: number, limit: number): Promise<MessageRow[]> {
      return tx
        .updateTable('messages')
        .set({ state: 'failed', error_code: 'gateway_missing', lease_until: null, updated_at: sql`now()` })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('messages')
            .select('id')
            .where('team_id', '=', teamId)
            .where('gateway_id', 'is', null)
            .where('state', '=', 'pending')
            .limit(limit),
        )
        .returningAll()
        .execute();
    },

    /**
     * Stamps the moment the calls begin, right before them; answers the rows still held by this
     * claim (`attempt` is the claim's token: a row whose lease ran out and that another worker
     * claimed since is not this worker's to call). The lease starts again here: it covers the call
     * and its settle, however long the batch waited for its turn before them.
     */
    async markCalled(claimed: Array<{ id: number; attempt: number }>, leaseMs: number): Promise<Set<number>> {
      if (claimed.length === 0) return new Set();
      const rows = await sql<{ id: string }>`
        update messages m set called_at = now(), lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
        from unnest(${claimed.map((c) => c.id)}::bigint[], ${claimed.map((c) => c.attempt)}::int[]) as v(id, attempt)
        where m.id = v.id and m.attempt = v.attempt and m.state = 'claimed'
        returning m.id`.execute(db);
      return new Set(rows.rows.map((r) => Number(r.id)));
    },

    /** Back to pending, uncalled (a single SMS that could not have its turn in time). */
    async release(row: { id: number; attempt: number }): Promise<MessageRow | undefined> {
      return db
        .updateTable('messages')
        .set({ state: 'pending', lease_until: null, called_at: null, not_before: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', row.id)
        .where('attempt', '=', row.attempt)
        .where('state', '=', 'claimed')
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Writes many calls' outcomes in one statement. Only rows still claimed or unknown by the same
     * claim move (an answer heard after a sweep still counts); a status a report already set is kept.
     * `has_kept`: a report for the row was kept while it was being sent (it is applied now; one kept
     * in the same instant is left to the sweep), so rows without one cost the send no more statements.
     */
    async settleMany(tx: Db, outcomes: Outcome[]): Promise<Array<MessageRow & { has_kept: boolean }>> {
      if (outcomes.length === 0) return [];
      const pick = <T>(f: (o: Outcome) => T) => outcomes.map(f);
      const rows = await sql<MessageRow & { has_kept: boolean }>`
        with v as (
          select * from unnest(
            ${pick((o) => o.id)}::bigint[], ${pick((o) => o.state)}::text[],
            ${pick((o) => (o.state === 'submitted' ? o.providerMessageId : null))}::text[],
            ${pick((o) => (o.state === 'submitted' ? o.status : null))}::text[],
            ${pick((o) => (o.state === 'submitted' ? null : o.errorCode))}::text[],
            ${pick((o) => (o.state === 'submitted' ? null : o.errorMessage.slice(0, 500)))}::text[],
            ${pick((o) => (o.state === 'pending' ? Math.round(o.delayMs) : 0))}::int[],
            ${pick((o) => o.attempt ?? null)}::int[]
          ) as v(id, state, pid, status, code, msg, delay, attempt)
        )
        update messages m set
          state = v.state,
          provider_message_id = coalesce(v.pid, m.provider_message_id),
          status = coalesce(m.status, v.status),
          status_at = case when m.status is null and v.status is not null then now() else m.status_at end,
          error_code = v.code,
          error_message = v.msg,
          lease_until = null,
          submitted_at = case when v.state = 'submitted' then now() else m.submitted_at end,
          called_at = case when v.state = 'pending' then null else m.called_at end,
          not_before = case when v.state = 'pending' then now() + v.delay * interval '1 millisecond' else m.not_before end,
          updated_at = now()
        from v where m.id = v.id and m.state in ('claimed', 'unknown') and (v.attempt is null or m.attempt = v.attempt)
        returning m.*, exists (
          select 1 from message_reports_kept k
          where k.message_id = m.id or (k.gateway_id = m.gateway_id and k.provider_message_id = m.provider_message_id)
        ) as has_kept`.execute(tx);
      return rows.rows;
    },

    /** What each charged row cost (a replayed charge answers the first amount). */
    async setPrices(tx: Db, charged: MessageRow[]): Promise<void> {
      if (charged.length === 0) return;
      await sql`update messages m set price = v.price
        from unnest(${charged.map((r) => Number(r.id))}::bigint[], ${charged.map((r) => Number(r.price))}::bigint[]) as v(id, price)
        where m.id = v.id and m.price <> v.price`.execute(tx);
    },

    /** Unknown rows not yet refunded, oldest call first: the sweep asks the provider about them. */
    unknownRows(limit: number): Promise<MessageRow[]> {
      return db
        .selectFrom('messages')
        .selectAll()
        .where('state', '=', 'unknown')
        .where('refunded_at', 'is', null)
        .orderBy('called_at')
        .limit(limit)
        .execute();
    },

    /**
     * Of these rows, the ones still unknown and not refunded, locked for the caller's transaction:
     * another node's sweep may have reconciled one since this one read it.
     */
    stillUnknown(tx: Db, ids: number[]): Promise<MessageRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return tx
        .selectFrom('messages')
        .selectAll()
        .where('id', 'in', ids)
        .where('state', '=', 'unknown')
        .where('refunded_at', 'is', null)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    /** Provider ids already bound to rows of this gateway, among `ids`; `except` a row's own. */
    async boundProviderIds(gatewayId: number, ids: string[], except?: number): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      let query = db
        .selectFrom('messages')
        .select('provider_message_id')
        .where('gateway_id', '=', gatewayId)
        .where('provider_message_id', 'in', ids);
      if (except !== undefined) query = query.where('id', '<>', except);
      const rows = await query.execute();
      return new Set(rows.map((r) => r.provider_message_id as string));
    },

    /** An unknown row proven unsent by a provider that dedupes by key: due again, same key. */
    async requeueUnknown(id: number): Promise<void> {
      await db
        .updateTable('messages')
        .set({ state: 'pending', called_at: null, not_before: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('state', '=', 'unknown')
        .execute();
    },

    /** The charge was given back; `unknown` rows keep their state (counted, shown), `failed` too. */
    async markRefunded(tx: Db, ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await tx
        .updateTable('messages')
        .set({ refunded_at: sql`now()`, updated_at: sql`now()` })
        .where('id', 'in', ids)
        .where('refunded_at', 'is', null)
        .execute();
    },
  };
}
export type SendRowsRepository = ReturnType<typeof createSendRowsRepository>;
