import { sql } from 'kysely';
import { runAsBulk } from '../../db/connection-priority.ts';
import { engineAdvance } from './campaign-engine-advance.ts';
import { type CampaignEngineDeps, campaignMoves, type EngineContext } from './campaign-engine-moves.ts';
import { enginePauses } from './campaign-engine-pause.ts';
import { createEngineReport } from './campaign-engine-report.ts';
import { engineStarts } from './campaign-engine-start.ts';
import { lookupStepMoves } from './campaign-lookup-steps.ts';

export type { CampaignEngineDeps } from './campaign-engine-moves.ts';

/**
 * The campaign engine (decision 032). The `campaigns` row is the schedule: a tick on every worker
 * process finds what is due — scheduled campaigns whose time came (also after a restart that missed
 * it), paused ones whose queued rows must stop, active ones whose next steps, exclusions, auto-fail
 * and completion are due — and moves it with conditional updates, so two processes never act twice.
 * Sending itself is the messages dispatch's: the engine only queues pending rows.
 * Its parts: starts (campaign-engine-start.ts), pauses and resumes (campaign-engine-pause.ts), an
 * active campaign's moves (campaign-engine-advance.ts); here, the tick and what wakes it.
 */
export function createCampaignEngine(deps: CampaignEngineDeps) {
  const { db } = deps;
  // What moved is told after its commit; a failure is logged with its campaign (decision 034).
  const report = createEngineReport(deps);
  const ctx: EngineContext = {
    deps,
    db,
    report,
    // Lookup steps' lookups: made, stopped and started again outside the campaigns' transactions.
    lookupSteps: lookupStepMoves(db, () => deps.lookups?.()),
    moves: campaignMoves(report.moved),
  };
  const { failed, announce } = report;
  const pauses = enginePauses(ctx);
  const { startDue } = engineStarts(ctx, pauses);
  const advance = engineAdvance(ctx);

  /** Pauses first: what a user stopped must not wait behind starts and steps. */
  async function tick(): Promise<void> {
    await pauses.holdPaused();
    await startDue();
    const active = (
      await sql<{
        id: string;
        team_id: string;
      }>`select id, team_id from campaigns where status = 'active' order by id`.execute(db)
    ).rows;
    const ids = active.map((r) => Number(r.id));
    // One campaign's trouble (a statement that fails) is logged and leaves the others moving; the next tick retries it.
    // The audience of a start still fixing recipients is compiled before its transaction (one connection embedded).
    const fixing = await deps.recipients.fixing(ids);
    for (const r of active)
      await (async () => {
        await ctx.lookupSteps.turns(Number(r.id));
        return advance(
          Number(r.id),
          fixing.has(Number(r.id)) ? await deps.recipients.audienceOf(Number(r.team_id), Number(r.id)) : undefined,
        );
      })().catch((err) => failed(Number(r.id), err));
    await announce();
    await report.progress(ids);
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    // Bulk work: on the embedded database a person's request is given the connection first.
    running = runAsBulk(() => tick())
      // A failed tick (the database restarting) is logged and tried again on the next one.
      .catch((err) => failed(null, err))
      .finally(() => {
        running = undefined;
      });
  };
  if (deps.runWorkers) {
    timer = setInterval(run, deps.tickMs ?? 500);
    timer.unref();
    // A user's pause or resume is acted on at once, not at the next tick.
    deps.domainEvents?.on('campaigns.status_changed', async (event) => {
      for (const c of event.campaigns) if (c.to === 'paused') await pauses.holdNow(c.id);
      run();
    });
    deps.domainEvents?.on('billing.balance_raised', (event) =>
      pauses.resumeForBalance(event.teamId, event.userId).catch((err) => failed(null, err)),
    );
    run();
  }

  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
