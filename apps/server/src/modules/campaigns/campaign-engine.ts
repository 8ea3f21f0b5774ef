import { type Kysely, sql } from 'kysely';
import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { DB } from '../../db/schema.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import {
  type CampaignRow,
  cancelQueued,
  deferQuiet,
  expireSendBy,
  holdRows,
  queueNextStep,
  releaseRows,
  type StepRow,
  sentAndFailed,
  skipGoneRecipients,
  unpaidRows,
} from './campaign-engine-rows.ts';
import { renderQueued } from './campaign-engine-render.ts';
import type { ShortLinksMaker } from './campaigns.deps.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import type { AudienceSql } from './campaign-recipients.repository.ts';
import type { CampaignStart } from './campaign-start.ts';
import { autoFails } from './campaign-policy.ts';
import { capDue } from './campaign-cap.ts';
import { createEngineReport, type EngineReportDeps } from './campaign-engine-report.ts';
import {
  engineSteps as stepsOf,
  followLookups,
  type LookupStepsPort,
  lookupStepMoves,
  lookupsOwed,
  queueAfterLookup,
} from './campaign-lookup-steps.ts';

type Db = Kysely<DB>;

export interface CampaignEngineDeps extends EngineReportDeps {
  db: Db;
  runWorkers: boolean;
  domainEvents?: Pick<DomainEventsHub, 'on'>;
  /** Fixes a start's recipients a chunk per transaction (decision 036). */
  recipients: Pick<CampaignStart, 'audienceOf' | 'begin' | 'proceed' | 'fixing'>;
  /** How often the engine looks at campaigns (a pause takes effect within it); default 500 ms. */
  tickMs?: number;
  shortLinks: ShortLinksMaker;
  /** Lookup steps' lookups (decision 041); bound once the lookups module exists. */
  lookups?: () => LookupStepsPort | undefined;
}

type Campaign = CampaignRow & { status: TCampaignStatus; started_at: Date | null };

const CAMPAIGN_COLUMNS = sql`id, team_id, launched_by, gateway_id, sender, frequency_per_minute, status, started_at,
  timezone, quiet_hours, quiet_from::text as quiet_from, quiet_to::text as quiet_to`;

/**
 * The campaign engine (decision 032). The `campaigns` row is the schedule: a tick on every worker
 * process finds what is due — scheduled campaigns whose time came (also after a restart that missed
 * it), paused ones whose queued rows must stop, active ones whose next steps, exclusions, auto-fail
 * and completion are due — and moves it with conditional updates, so two processes never act twice.
 * Sending itself is the messages dispatch's: the engine only queues pending rows.
 */
export function createCampaignEngine(deps: CampaignEngineDeps) {
  const { db } = deps;
  // What moved is told after its commit; a failure is logged with its campaign (decision 034).
  const report = createEngineReport(deps);
  // Lookup steps' lookups: made, stopped and started again outside the campaigns' transactions.
  const lookupSteps = lookupStepMoves(db, () => deps.lookups?.());
  const { failed, announce } = report;

  async function move(tx: Db, c: Campaign, to: TCampaignStatus, extra: Record<string, unknown> = {}) {
    const moved = await tx
      .updateTable('campaigns')
      .set({ status: to, updated_at: sql`now()`, version: sql`version + 1`, ...extra })
      .where('id', '=', c.id)
      .where('status', '=', c.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    report.moved.add(c.id);
    return true;
  }

  /** Locks the campaign's row for this process (another one working on it is skipped). */
  async function lock(tx: Db, id: number, status: TCampaignStatus): Promise<Campaign | undefined> {
    const r = await sql<Campaign>`select ${CAMPAIGN_COLUMNS} from campaigns
      where id = ${id} and status = ${status} for update skip locked`.execute(tx);
    const c = r.rows[0];
    return (
      c && { ...c, id: Number(c.id), team_id: Number(c.team_id), launched_by: c.launched_by && Number(c.launched_by) }
    );
  }

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
        failed(Number(row.id), err),
      );
  }

  async function startOne(id: number, teamId: number, resumed: boolean): Promise<void> {
    if (resumed) {
      await db.transaction().execute(async (tx) => {
        const c = await lock(tx, id, 'scheduled');
        if (!c || !(await move(tx, c, 'active', { paused_reason: null }))) return;
        await releaseRows(tx, c);
        await capDue(tx, id, c.team_id);
        await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_resumed' });
      });
      await lookupSteps.resume(id);
      return announce();
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
      await announce();
    }
    // The audience is compiled outside the transaction (the embedded database has one connection).
    const audience = await deps.recipients.audienceOf(teamId, id);
    await db.transaction().execute(async (tx) => {
      const c = await lock(tx, id, 'processing');
      if (!c) return;
      // The first chunk of recipients, queued and capped; the next ones each tick (decision 036).
      // A first lookup step has its turn once every recipient is fixed (campaign-lookup-steps.ts).
      const first = (await stepsOf(tx, id)).find((s) => s.position === 1 && s.type === 'sms');
      const queued = await deps.recipients.begin(tx, c, audience, first);
      if (first) await stepStarted(tx, c, first, queued);
      await move(tx, c, 'active');
      await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_started' });
    });
    await announce();
  }

  async function stepStarted(tx: Db, c: Campaign, step: StepRow, queued: number) {
    await sql`update campaign_steps set status = 'sending', started_at = coalesce(started_at, now()),
      recipients_count = recipients_count + ${queued}::int, updated_at = now() where id = ${step.id}`.execute(tx);
    if (queued > 0)
      await appendCampaignLog(tx, {
        campaignId: c.id,
        teamId: c.team_id,
        userId: null,
        type: 'campaign_step_started',
        data: { step_id: step.id, position: step.position },
      });
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

  /** One active campaign: balance, exclusions, next steps, auto-fail, completion. */
  async function advance(id: number, fixing?: AudienceSql): Promise<void> {
    await db.transaction().execute(async (tx) => {
      const c = await lock(tx, id, 'active');
      if (!c) return;
      if ((await unpaidRows(tx, id)) > 0) {
        if (await move(tx, c, 'paused', { paused_reason: 'campaign_policy_not_enough_balance' }))
          report.balancePaused.add(id);
        await holdRows(tx, id);
        await appendCampaignLog(tx, {
          campaignId: id,
          teamId: c.team_id,
          userId: null,
          type: 'campaign_policy_not_enough_balance',
        });
        return;
      }
      // A lookup step's lookup paused (no money, a user, no gateway) pauses its campaign.
      const looked = await followLookups(tx, id, c.team_id);
      if (looked.paused) {
        const balance = looked.paused === 'campaign_policy_not_enough_balance';
        if (await move(tx, c, 'paused', { paused_reason: looked.paused })) if (balance) report.balancePaused.add(id);
        await holdRows(tx, id);
        await appendCampaignLog(tx, {
          campaignId: id,
          teamId: c.team_id,
          userId: null,
          type: balance ? 'campaign_policy_not_enough_balance' : 'campaign_paused',
          data: { reason: { code: looked.paused } as never },
        });
        return;
      }
      await skipGoneRecipients(tx, id, c.team_id);
      await deferQuiet(tx, c);
      await expireSendBy(tx, id);
      const figures = await sentAndFailed(tx, id);
      if (autoFails(figures)) {
        await move(tx, c, 'failed', { failed_reason: 'campaign_auto_failed', completed_at: sql`now()` });
        await cancelQueued(tx, id, 'campaign_failed');
        await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_failed' });
        return;
      }
      const steps = await stepsOf(tx, id);
      // A start still fixing recipients: its next chunk, queued for step 1.
      const first = steps[0]?.type === 'sms' ? steps[0] : undefined;
      const start = fixing ? await deps.recipients.proceed(tx, c, fixing, first) : { queued: 0, fixing: false };
      let queued = start.queued;
      for (let i = 1; i < steps.length; i++) {
        const prev = steps[i - 1] as (typeof steps)[number];
        const step = steps[i] as (typeof steps)[number];
        if (step.type === 'lookup') continue;
        // After a lookup step: once it is sent, from what reached it, its invalid and non-mobile phones skipped.
        const n =
          prev.type === 'lookup'
            ? prev.status === 'sent'
              ? await queueAfterLookup(tx, c, steps, i)
              : 0
            : await queueNextStep(tx, c, prev, step);
        if (n > 0) await renderQueued(tx, c.team_id, step, deps.shortLinks);
        if (n > 0) await stepStarted(tx, c, step, n);
        queued += n;
      }
      // Rows coming due (queued now, or earlier) are held against the team's cap before the commit.
      await capDue(tx, id, c.team_id);
      // Step 1 is not sent while later chunks may still queue its rows.
      if (!start.fixing) await settleSteps(tx, id);
      if (queued === 0 && figures.open === 0 && !start.fixing && !(await lookupsOwed(tx, id))) {
        await move(tx, c, 'completed', { completed_at: sql`now()` });
        await appendCampaignLog(tx, { campaignId: id, teamId: c.team_id, userId: null, type: 'campaign_completed' });
      }
    });
  }

  /**
   * A sending step with no open rows left, after its previous step, is sent. An unknown row whose
   * charge was given back (unproven after the deadline, decision 024) has ended: it is not open.
   * Step by step: a later step can end first (its predecessor's last row refunded at the deadline),
   * and one statement sees its predecessor still sending.
   */
  async function settleSteps(tx: Db, campaignId: number) {
    for (;;) {
      const settled = await sql`update campaign_steps s set status = 'sent', completed_at = now(), updated_at = now()
        where s.campaign_id = ${campaignId} and s.status = 'sending' and s.type = 'sms'
          and not exists (select 1 from messages m where m.campaign_step_id = s.id
            and (m.state in ('pending', 'claimed') or (m.state = 'unknown' and m.refunded_at is null)))
          and not exists (select 1 from campaign_steps p where p.campaign_id = s.campaign_id and p.position < s.position and p.status <> 'sent')`.execute(
        tx,
      );
      if (Number(settled.numAffectedRows ?? 0) === 0) return;
    }
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
        const c = await lock(tx, Number(r.id), 'paused');
        if (!c || !(await move(tx, c, 'active', { paused_reason: null }))) return;
        resumed.push(c.id);
        await releaseRows(tx, c);
        await capDue(tx, c.id, teamId);
        await appendCampaignLog(tx, { campaignId: c.id, teamId, userId: null, type: 'campaign_resumed' });
      });
    for (const id of resumed) await lookupSteps.resume(id);
    await announce();
  }

  /** Pauses first: what a user stopped must not wait behind starts and steps. */
  async function tick(): Promise<void> {
    await holdPaused();
    await startDue();
    const active = await sql<{
      id: string;
      team_id: string;
    }>`select id, team_id from campaigns where status = 'active' order by id`.execute(db);
    // One campaign's trouble (a statement that fails) is logged and leaves the others moving; the next tick retries it.
    // The audience of a start still fixing recipients is compiled before its transaction (one connection embedded).
    const fixing = await deps.recipients.fixing(active.rows.map((r) => Number(r.id)));
    for (const r of active.rows)
      await (async () => {
        await lookupSteps.turns(Number(r.id));
        return advance(
          Number(r.id),
          fixing.has(Number(r.id)) ? await deps.recipients.audienceOf(Number(r.team_id), Number(r.id)) : undefined,
        );
      })().catch((err) => failed(Number(r.id), err));
    await announce();
    await report.progress(active.rows.map((r) => Number(r.id)));
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
      for (const c of event.campaigns)
        if (c.to === 'paused')
          await db
            .transaction()
            .execute((tx) => holdRows(tx, c.id))
            .catch((err) => failed(c.id, err));
      run();
    });
    deps.domainEvents?.on('billing.balance_raised', (event) =>
      resumeForBalance(event.teamId, event.userId).catch((err) => failed(null, err)),
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
