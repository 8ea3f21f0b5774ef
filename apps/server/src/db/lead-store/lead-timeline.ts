import { sql, type Transaction } from 'kysely';
import type { DB } from '../schema.ts';
import type { DiffEntry } from '../tables/leads.tables.ts';

/** One Timeline entry (`lead_logs`): what changed on a lead, shown on its page newest first. */
export interface TimelineEntry {
  lead_id: number;
  type: string;
  action: string;
  filename?: string | null;
  diff_log: DiffEntry[];
}

/**
 * Appends entries to the Timeline of leads the transaction has created or locked: the Timeline has
 * no foreign key (migration 0006), so an entry for a lead deleted meanwhile would stay behind.
 * `userId` null: done by nobody (the system, or a user since deleted).
 */
export async function appendTimeline(
  tx: Transaction<DB>,
  teamId: number,
  userId: number | null,
  entries: TimelineEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx
    .insertInto('lead_logs')
    .values(
      entries.map((e) => ({
        team_id: teamId,
        user_id: userId,
        lead_id: e.lead_id,
        type: e.type,
        action: e.action,
        filename: e.filename ?? null,
        diff_log: JSON.stringify(e.diff_log),
      })),
    )
    .execute();
}

/**
 * Appends many entries in one statement, each only where its lead still exists (locked for share
 * in the same statement, so none is deleted meanwhile): for writers that do not lock the leads
 * themselves, such as a batch of delivery reports or a campaign's events. Entries keep their order.
 */
export async function appendTimelineBulk(
  tx: Transaction<DB>,
  teamId: number,
  userId: number | null,
  entries: TimelineEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    with e as (
      select * from unnest(${entries.map((e) => e.lead_id)}::bigint[], ${entries.map((e) => e.type)}::text[],
        ${entries.map((e) => e.action)}::text[], ${entries.map((e) => e.filename ?? null)}::text[],
        ${entries.map((e) => JSON.stringify(e.diff_log))}::text[])
        with ordinality as e(lead_id, type, action, filename, diff_log, n)
    ), alive as (
      select id from leads where team_id = ${teamId} and id in (select lead_id from e) for share
    )
    insert into lead_logs (team_id, user_id, lead_id, type, action, filename, diff_log)
    select ${teamId}, ${userId}::bigint, e.lead_id, e.type, e.action, e.filename, e.diff_log::jsonb
    from e join alive on alive.id = e.lead_id order by e.n`.execute(tx);
}
