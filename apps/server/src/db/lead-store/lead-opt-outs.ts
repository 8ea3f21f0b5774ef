import { sql, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';
import type { TimelineEntry } from './lead-timeline.ts';

/** Why a phone was opted out: a STOP reply, or the unsubscribe page of a link. */
export type OptOutReason = 'inbound_stop' | 'unsubscribe_link';

export interface OptOut {
  /** The phones; none given, every phone `ofLead` holds (a link made without a phone). */
  phones: string[];
  ofLead?: number | null;
  reason: OptOutReason;
  /** The gateway that carried the reply or the message; else the gateway of `messageId`, if it still exists. */
  gatewayId?: number | null;
  messageId?: number | null;
  /** The Timeline entry of each lead value holding one of the phones. */
  entry(value: { leadId: number; phone: string }): TimelineEntry;
}

/**
 * The one way a phone is opted out for a team (decision 025), whichever way the recipient said so:
 * `message_opt_outs` gets the phone (every send checks it, also where no lead holds it), the team's
 * values of it get `ban`, and every lead holding it a Timeline entry. Returns the leads holding it,
 * locked, in id order; `LeadWrite.banPhones` then blacklists them with `setStatus` (so the status
 * change lands on the Timeline too). Opting out twice adds no opt-out row; its Timeline entries are
 * the caller's to spare (a replayed reply is recorded once before this is called).
 */
export async function banPhones(
  tx: Transaction<DB>,
  teamId: number,
  optOut: OptOut,
  touchLeads: (ids: number[]) => Promise<number>,
  appendTimeline: (entries: TimelineEntry[]) => Promise<void>,
): Promise<number[]> {
  let phones = [...new Set(optOut.phones)];
  if (phones.length === 0 && optOut.ofLead != null) {
    const own = await tx
      .selectFrom('lead_values')
      .select('value')
      .where('team_id', '=', teamId)
      .where('lead_id', '=', optOut.ofLead)
      .where('type', '=', 'phone')
      .execute();
    phones = [...new Set(own.map((v) => v.value))];
  }
  if (phones.length === 0) return [];
  await sql`
    insert into message_opt_outs (team_id, phone, gateway_id, reason)
    select ${teamId}, p.phone,
      coalesce(${optOut.gatewayId ?? null}::bigint,
        (select m.gateway_id from messages m where m.team_id = ${teamId} and m.id = ${optOut.messageId ?? null}::bigint)),
      ${optOut.reason}
    from unnest(${phones}::text[]) as p(phone)
    on conflict (team_id, phone) do nothing`.execute(tx);
  const held = await tx
    .selectFrom('lead_values')
    .select(['id', 'lead_id', 'value'])
    .where('team_id', '=', teamId)
    .where('type', '=', 'phone')
    .where('value', 'in', phones)
    .orderBy('lead_id')
    .orderBy('id')
    .execute();
  if (held.length === 0) return [];
  const leadIds = [...new Set(held.map((v) => Number(v.lead_id)))];
  // Leads first, then their values: the lock order every lead write keeps.
  await touchLeads(leadIds);
  await tx
    .updateTable('lead_values')
    .set({ ban: true, updated_at: sql`now()` })
    .where('team_id', '=', teamId)
    .where(
      'id',
      'in',
      held.map((v) => v.id),
    )
    .execute();
  await appendTimeline(held.map((v) => optOut.entry({ leadId: Number(v.lead_id), phone: v.value })));
  return leadIds;
}

/**
 * People clicked links their leads were sent (the first human clicks of a moment, written
 * together): each click's phone value (the message's phone, or every phone of the lead when the
 * link named none) gets `clicked`, and its lead a Timeline entry; leads gone meanwhile are left
 * out. Three statements however many clicks. Returns how many clicks were marked.
 */
export async function markClicked(
  tx: Transaction<DB>,
  teamId: number,
  clicks: Array<{ leadId: number; phone: string | null; entry: TimelineEntry }>,
  appendTimeline: (entries: TimelineEntry[]) => Promise<void>,
): Promise<number> {
  if (clicks.length === 0) return 0;
  // Locked in id order, as every other writer of many leads locks them.
  const ids = [...new Set(clicks.map((c) => c.leadId))].sort((a, b) => a - b);
  const touched = await sql<{ id: string }>`update leads set updated_at = now()
    where id in (select id from leads where team_id = ${teamId} and id = any(${ids}::bigint[]) order by id for update)
    returning id`.execute(tx);
  const live = new Set(touched.rows.map((r) => Number(r.id)));
  const marked = clicks.filter((c) => live.has(c.leadId));
  if (marked.length === 0) return 0;
  await sql`update lead_values v set clicked = true, updated_at = now()
    from unnest(${marked.map((c) => c.leadId)}::bigint[], ${marked.map((c) => c.phone)}::text[]) as c(lead_id, phone)
    where v.team_id = ${teamId} and v.lead_id = c.lead_id and v.type = 'phone'
      and (c.phone is null or v.value = c.phone)`.execute(tx);
  await appendTimeline(marked.map((c) => c.entry));
  return marked.length;
}
