import type { Transaction } from 'kysely';
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
