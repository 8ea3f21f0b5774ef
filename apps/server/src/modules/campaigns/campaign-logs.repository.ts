import { type Kysely, sql } from 'kysely';
import type { TCampaignLog, TCampaignLogData, TCampaignLogType } from '@herald/shared/campaigns/campaigns.schemas';
import type { DB } from '../../db/schema.ts';

export interface CampaignLogEntry {
  campaignId: number;
  teamId: number;
  /** Who did it; null for the engine. */
  userId: number | null;
  type: TCampaignLogType;
  data?: TCampaignLogData;
}

/**
 * Writes log entries in the caller's transaction, so an entry exists exactly when what it tells of
 * was committed. The engine writes its own entries (started, paused and why, completed…) with it.
 */
export async function appendCampaignLogs(tx: Kysely<DB>, entries: readonly CampaignLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx
    .insertInto('campaign_logs')
    .values(
      entries.map((e) => ({
        campaign_id: e.campaignId,
        team_id: e.teamId,
        user_id: e.userId,
        type: e.type,
        data: JSON.stringify(e.data ?? {}),
      })),
    )
    .execute();
}

export function appendCampaignLog(tx: Kysely<DB>, entry: CampaignLogEntry): Promise<void> {
  return appendCampaignLogs(tx, [entry]);
}

/** A campaign's log, newest first. */
export async function campaignLogPage(
  db: Kysely<DB>,
  teamId: number,
  campaignId: number,
  window: { offset: number; limit: number },
): Promise<{ rows: TCampaignLog[]; total: number }> {
  const base = db
    .selectFrom('campaign_logs as g')
    .where('g.team_id', '=', teamId)
    .where('g.campaign_id', '=', campaignId);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.id', 'g.type', 'g.data', 'g.created_at', 'g.user_id', 'u.name as user_name'])
      .orderBy('g.id', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      type: r.type,
      user: r.user_id === null ? null : { id: Number(r.user_id), name: r.user_name ?? '' },
      data: r.data,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total: Number(total.n),
  };
}
