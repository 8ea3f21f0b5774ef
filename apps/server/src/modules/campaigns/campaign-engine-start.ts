import { sql } from 'kysely';
import type { EngineContext } from './campaign-engine-moves.ts';
import type { enginePauses } from './campaign-engine-pause.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import { engineSteps } from './campaign-lookup-steps.ts';

/** Scheduled campaigns whose time came: a first start, or a resume of one paused with a start time. */
export function engineStarts(
  { db, deps, report, lookupSteps, moves }: EngineContext,
  pauses: Pick<ReturnType<typeof enginePauses>, 'resumeOne'>,
) {
  const { move, lock, stepStarted } = moves;

  /** Scheduled and due: a first start fixes recipients and queues step 1; a resume releases the held rows. */
  async function startDue(): Promise<void> {
    const due = await sql<{ id: string; team_id: string; started_at: Date | null }>`
      select id, team_id, started_at from campaigns
      where (status = 'scheduled' and start_at <= now()) or status = 'processing' order by start_at limit 20`.execute(
      db,
    );
    // One campaign that cannot start (logged) leaves the others starting.
    for (const row of due.rows)
      await startOne(Number(row.id), Number(row.team_id), row.started_at !== null).catch((err) =>
        report.failed(Number(row.id), err),
      );
  }

  async function startOne(id: number, teamId: number, resumed: boolean): Promise<void> {
    if (resumed) {
      await db.transaction().execute((tx) => pauses.resumeOne(tx, id, 'scheduled'));
      await lookupSteps.resume(id);
      return report.announce();
    }
    // Processing is visible while the recipients are fixed; a process dying here leaves it for the next tick.
    const processing = await db
      .updateTable('campaigns')
      .set({ status: 'processing', started_at: sql`now()`, updated_at: sql`now()`, version: sql`version + 1` })
      .where('id', '=', id)
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    if (Number(processing.numUpdatedRows) === 1) {
      report.moved.add(id);
      await report.announce();
    }
    // The audience is compiled outside the transaction (the embedded database has one connection).
    const audience = await deps.recipients.audienceOf(teamId, id);
    await db.transaction().execute(async (tx) => {
      const c = await lock(tx, id, 'processing');
      if (!c) return;
      // The first chunk of recipients, queued and capped; the next ones each tick (decision 036).
      // A first lookup step has its turn once every recipient is fixed (campaign-lookup-steps.ts).
      const first = (await engineSteps(tx, id)).find((s) => s.position === 1 && s.type === 'sms');
      const queued = await deps.recipients.begin(tx, c, audience, first);
      if (first) await stepStarted(tx, c, first, queued);
      await move(tx, c, 'active');
      await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_started' });
    });
    await report.announce();
  }

  return { startDue };
}
