import { type Kysely, sql } from 'kysely';
import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { DB } from '../../db/schema.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import type { CampaignRow, StepRow } from './campaign-engine-rows.ts';
import type { EngineReportDeps, createEngineReport } from './campaign-engine-report.ts';
import type { ShortLinksMaker } from './campaigns.deps.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import type { CampaignStart } from './campaign-start.ts';
import type { LookupStepsPort, lookupStepMoves } from './campaign-lookup-steps.ts';

export type Db = Kysely<DB>;

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

export type Campaign = CampaignRow & { status: TCampaignStatus; started_at: Date | null };

/** What the engine's parts share: its deps, its report, its lookup steps' moves and the campaign's moves. */
export interface EngineContext {
  deps: CampaignEngineDeps;
  db: Db;
  report: ReturnType<typeof createEngineReport>;
  lookupSteps: ReturnType<typeof lookupStepMoves>;
  moves: ReturnType<typeof campaignMoves>;
}

const CAMPAIGN_COLUMNS = sql`id, team_id, launched_by, gateway_id, sender, frequency_per_minute, status, started_at,
  timezone, quiet_hours, quiet_from::text as quiet_from, quiet_to::text as quiet_to`;

/**
 * A campaign's row moved from the status it was read in (a conditional update: two processes never
 * act twice), locked for one process, and a step's start; `moved` collects what to tell after commit.
 */
export function campaignMoves(moved: Set<number>) {
  async function move(tx: Db, c: Campaign, to: TCampaignStatus, extra: Record<string, unknown> = {}) {
    const result = await tx
      .updateTable('campaigns')
      .set({ status: to, updated_at: sql`now()`, version: sql`version + 1`, ...extra })
      .where('id', '=', c.id)
      .where('status', '=', c.status)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    moved.add(c.id);
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

  /** A step that queued rows is sending (counted, logged once it queued any). */
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

  return { move, lock, stepStarted };
}
