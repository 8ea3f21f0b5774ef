import { sql } from 'kysely';
import { capDue } from './campaign-cap.ts';
import type { Db, EngineContext } from './campaign-engine-moves.ts';
import { renderQueued } from './campaign-engine-render.ts';
import {
  cancelQueued,
  deferQuiet,
  expireSendBy,
  holdRows,
  queueNextStep,
  sentAndFailed,
  skipGoneRecipients,
  unpaidRows,
} from './campaign-engine-rows.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import { engineSteps, followLookups, lookupsOwed, queueAfterLookup } from './campaign-lookup-steps.ts';
import { autoFails } from './campaign-policy.ts';
import type { AudienceSql } from './campaign-recipients.repository.ts';

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

/** One active campaign each tick, in its transaction: balance, exclusions, next steps, auto-fail, completion. */
export function engineAdvance({ db, deps, report, moves }: EngineContext) {
  const { move, lock, stepStarted } = moves;

  return async function advance(id: number, fixing?: AudienceSql): Promise<void> {
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
      const steps = await engineSteps(tx, id);
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
  };
}
