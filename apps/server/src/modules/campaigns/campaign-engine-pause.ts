import { sql } from 'kysely';
import { capDue } from './campaign-cap.ts';
import type { Db, EngineContext } from './campaign-engine-moves.ts';
import { holdRows, releaseRows } from './campaign-engine-rows.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';

/** The engine's pauses and resumes: held rows, rows due again, the lookup steps' lookups with them. */
export function enginePauses({ db, report, lookupSteps, moves }: EngineContext) {
  const { move, lock } = moves;

  /**
   * In the campaign's transaction: a paused (or scheduled-after-pause) campaign is active again, its
   * held rows and those refused for want of balance due again, capped; false when another moved it.
   */
  async function resumeOne(tx: Db, id: number, from: 'scheduled' | 'paused'): Promise<boolean> {
    const c = await lock(tx, id, from);
    if (!c || !(await move(tx, c, 'active', { paused_reason: null }))) return false;
    await releaseRows(tx, c);
    await capDue(tx, id, c.team_id);
    await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_resumed' });
    return true;
  }

  /** Paused campaigns: queued rows stop being due (a user's pause, or the balance's). */
  async function holdPaused(): Promise<void> {
    const paused = await sql<{ id: string }>`select c.id from campaigns c where c.status = 'paused'
      and exists (select 1 from messages m where m.campaign_id = c.id and m.state = 'pending' and m.not_before < 'infinity')`.execute(
      db,
    );
    for (const r of paused.rows) await db.transaction().execute((tx) => holdRows(tx, Number(r.id)));
    await lookupSteps.stopInactive();
  }

  /**
   * A top-up of a launcher with auto-refill resumes the campaigns the balance paused (spec: without
   * auto-refill the user resumes them). The held rows and the refused ones go again, same keys.
   */
  async function resumeForBalance(teamId: number, userId: number): Promise<void> {
    const paused = await sql<{ id: string }>`select c.id from campaigns c join users u on u.id = c.launched_by
      where c.team_id = ${teamId} and c.launched_by = ${userId} and c.status = 'paused'
        and c.paused_reason = 'campaign_policy_not_enough_balance' and u.balance_auto_refill`.execute(db);
    const resumed: number[] = [];
    for (const r of paused.rows)
      await db.transaction().execute(async (tx) => {
        if (await resumeOne(tx, Number(r.id), 'paused')) resumed.push(Number(r.id));
      });
    for (const id of resumed) await lookupSteps.resume(id);
    await report.announce();
  }

  /** A user's pause, acted on at once: the campaign's queued rows are held (its own transaction). */
  function holdNow(campaignId: number): Promise<void> {
    return db
      .transaction()
      .execute((tx) => holdRows(tx, campaignId))
      .catch((err) => report.failed(campaignId, err));
  }

  return { resumeOne, holdPaused, resumeForBalance, holdNow };
}
