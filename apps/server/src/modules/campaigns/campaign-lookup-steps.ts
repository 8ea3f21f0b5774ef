import { type Kysely, sql } from 'kysely';
import type { TCampaignStepStatus } from '@herald/shared/campaigns/campaign-moves';
import type { DB } from '../../db/schema.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import { type CampaignRow, foundNotValidMobile, queueFollowingStep, type StepRow } from './campaign-engine-rows.ts';

type Db = Kysely<DB>;

/** What the engine asks of the lookups module for a lookup step (wired in app.ts). */
export interface LookupStepsPort {
  /** The step's one lookup, made and started (a second call finds the first and starts it if it never did). */
  createForStep(
    teamId: number,
    userId: number,
    a: { campaignStepId: number; phones: string[]; gatewayId: number | null },
  ): Promise<number>;
  start(teamId: number, userId: number, id: number): Promise<void>;
  stop(teamId: number, id: number): Promise<void>;
}

/** A step as the engine walks them: SMS steps queue messages, lookup steps look phones up. */
export type EngineStep = StepRow & {
  type: 'sms' | 'lookup';
  status: TCampaignStepStatus;
  completed_at: Date | null;
  gateway_id: number | null;
};

/** A campaign's steps in order, every type. */
export async function engineSteps(q: Db, campaignId: number): Promise<EngineStep[]> {
  const rows = await q
    .selectFrom('campaign_steps')
    .select(['id', 'position', 'type', 'status', 'message', 'delay_minutes', 'limit_cap', 'redirect_to'])
    .select(['short_url_domain_id', 'completed_at', 'gateway_id'])
    .where('campaign_id', '=', campaignId)
    .orderBy('position')
    .execute();
  return rows.map((s) => ({
    ...s,
    id: Number(s.id),
    short_url_domain_id: s.short_url_domain_id === null ? null : Number(s.short_url_domain_id),
    gateway_id: s.gateway_id === null ? null : Number(s.gateway_id),
    completed_at: s.completed_at === null ? null : new Date(s.completed_at),
  }));
}

/** Phones the step at `index` reaches: the last SMS step's before it that went out, or the recipients. */
function reachedBy(c: { id: number }, steps: EngineStep[], index: number) {
  const source = steps
    .slice(0, index)
    .reverse()
    .find((s) => s.type === 'sms');
  return source
    ? sql`select m.lead_id, m.phone, m.id as ord from messages m
        where m.campaign_step_id = ${source.id} and m.state = 'submitted'`
    : sql`select r.lead_id, r.phone, r.lead_id as ord from campaign_recipients r
        where r.campaign_id = ${c.id} and r.skip_reason is null`;
}

/**
 * Lookup steps whose turn came, outside the campaign's transaction (the lookups module writes in
 * its own): the first step once every recipient is fixed, a later one when the step before it is
 * sent and its delay has passed since. The step's phones go to one lookup; a step with no phone is
 * sent at once. A rerun (another worker, a crash after the lookup was made) finds the lookup.
 */
async function startLookupTurns(
  db: Db,
  port: LookupStepsPort,
  c: { id: number; team_id: number; launched_by: number | null },
  steps: EngineStep[],
) {
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as EngineStep;
    if (step.type !== 'lookup' || step.status !== 'not_sent' || c.launched_by === null) continue;
    const prev = steps[i - 1];
    if (prev && (prev.status !== 'sent' || !prev.completed_at)) continue;
    if (prev && (prev.completed_at as Date).getTime() + step.delay_minutes * 60_000 > Date.now()) continue;
    if (!prev) {
      const fixing = await sql<{ through: string | null }>`select recipients_through as through from campaigns
        where id = ${c.id}`.execute(db);
      if (fixing.rows[0]?.through != null) continue;
    }
    const phones = await sql<{ phone: string }>`select distinct p.phone from (${reachedBy(c, steps, i)}) p`.execute(db);
    if (phones.rows.length === 0) {
      await sql`update campaign_steps set status = 'sent', started_at = now(), completed_at = now(), updated_at = now()
        where id = ${step.id} and status = 'not_sent'`.execute(db);
      continue;
    }
    await port.createForStep(c.team_id, c.launched_by, {
      campaignStepId: step.id,
      phones: phones.rows.map((r) => r.phone),
      gatewayId: step.gateway_id,
    });
  }
}

/**
 * In the campaign's transaction: each lookup step follows its lookup — sending while it runs
 * (recipients: its phones), sent when it completed. A lookup paused (no money, stopped by a user,
 * no gateway) answers the reason the campaign pauses with; the engine pauses it.
 */
export async function followLookups(tx: Db, campaignId: number, teamId: number): Promise<{ paused?: string }> {
  const r = await sql<{ step_id: string; step_status: string; status: number; reason: string | null; phones: number }>`
    select s.id as step_id, s.status as step_status, k.status, k.paused_reason as reason, k.phones
    from campaign_steps s join lookups k on k.campaign_step_id = s.id
    where s.campaign_id = ${campaignId} and s.type = 'lookup' and s.status <> 'sent'`.execute(tx);
  let paused: string | undefined;
  for (const l of r.rows) {
    // Made and never started (a worker died between): the step waits for its turn to start it.
    if (Number(l.status) === 0 && l.reason === null) continue;
    const id = Number(l.step_id);
    const to = Number(l.status) === 3 ? 'sent' : 'sending';
    await sql`update campaign_steps s set status = ${to}, recipients_count = ${l.phones}::int,
        started_at = coalesce(s.started_at, now()),
        completed_at = case when ${to} = 'sent' then coalesce((select k.completed_at from lookups k
          where k.campaign_step_id = s.id), now()) end, updated_at = now()
      where s.id = ${id}`.execute(tx);
    if (l.step_status === 'not_sent')
      await appendCampaignLog(tx, {
        campaignId,
        teamId,
        userId: null,
        type: 'campaign_step_started',
        data: { step_id: id },
      });
    const stopped = Number(l.status) === 2 || (Number(l.status) === 0 && l.reason !== null);
    if (stopped && paused === undefined)
      paused =
        l.reason === 'balance_not_enough_lookup'
          ? 'campaign_policy_not_enough_balance'
          : (l.reason ?? 'lookup_stopped');
  }
  return { paused };
}

/**
 * Whether a lookup step still has work: its turn came (first step, or the step before it sent) and
 * it is not sent. The campaign does not complete meanwhile, though no message is open.
 */
export async function lookupsOwed(tx: Db, campaignId: number): Promise<boolean> {
  const r = await sql`select 1 from campaign_steps s where s.campaign_id = ${campaignId} and s.type = 'lookup'
      and s.status <> 'sent' and not exists (select 1 from campaign_steps p where p.campaign_id = s.campaign_id
        and p.position = s.position - 1 and p.status <> 'sent')
    limit 1`.execute(tx);
  return r.rows.length > 0;
}

/** The campaign's lookups that run or wait to, for a pause (stop them) or a resume (start them). */
async function lookupsOf(db: Db, campaignId: number, statuses: number[]) {
  const r = await sql<{ id: string }>`select k.id from lookups k join campaign_steps s on s.id = k.campaign_step_id
    where s.campaign_id = ${campaignId} and k.status = any(${statuses}::int[])`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/** Campaigns not active whose step's lookup still runs: a pause, a failure. */
async function lookupsToStop(db: Db) {
  const r = await sql<{ id: string; team_id: string }>`select k.id, k.team_id from lookups k
    join campaign_steps s on s.id = k.campaign_step_id join campaigns c on c.id = s.campaign_id
    where k.status = 1 and c.status not in ('active', 'processing')`.execute(db);
  return r.rows.map((x) => ({ id: Number(x.id), teamId: Number(x.team_id) }));
}

/** The engine's moves of lookup steps outside a campaign's transaction (the port is bound late). */
export function lookupStepMoves(db: Db, portOf: () => LookupStepsPort | undefined) {
  return {
    /** A paused or failed campaign's running lookup stops. */
    async stopInactive() {
      const port = portOf();
      if (port) for (const l of await lookupsToStop(db)) await port.stop(l.teamId, l.id);
    },
    /** A resumed campaign's step lookups run again, paid by its launcher. */
    async resume(campaignId: number) {
      const port = portOf();
      const c = await db
        .selectFrom('campaigns')
        .select(['team_id', 'launched_by'])
        .where('id', '=', campaignId)
        .executeTakeFirst();
      if (!port || !c?.launched_by) return;
      for (const id of await lookupsOf(db, campaignId, [0, 2]))
        await port.start(Number(c.team_id), Number(c.launched_by), id);
    },
    /** An active campaign's lookup steps whose turn came get their lookup. */
    async turns(campaignId: number) {
      const port = portOf();
      const steps = port ? await engineSteps(db, campaignId) : [];
      if (!port || !steps.some((s) => s.type === 'lookup' && s.status === 'not_sent')) return;
      const c = await db
        .selectFrom('campaigns')
        .select(['id', 'team_id', 'launched_by'])
        .where('id', '=', campaignId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (c)
        await startLookupTurns(
          db,
          port,
          { id: Number(c.id), team_id: Number(c.team_id), launched_by: c.launched_by && Number(c.launched_by) },
          steps,
        );
    },
  };
}

/**
 * Queues the SMS step after a sent lookup step: for each phone the last SMS step before the lookup
 * reached (or each recipient), due the step's delay after the lookup completed. A phone the lookup
 * (or a fresh result) found invalid or not a mobile gets its row failed `skipped_not_valid_mobile`
 * whatever the campaign's `skip_invalid_phones`: skipping them is what the step is for.
 */
export function queueAfterLookup(tx: Db, c: CampaignRow, steps: EngineStep[], index: number): Promise<number> {
  const lookup = steps[index - 1] as EngineStep;
  const at = (lookup.completed_at ?? new Date()).toISOString();
  return queueFollowingStep(tx, c, steps[index] as EngineStep, {
    reached: reachedBy(c, steps, index - 1),
    dueFrom: sql`${at}::timestamptz`,
    excluded: foundNotValidMobile(c.team_id, sql`p.phone`),
  });
}
