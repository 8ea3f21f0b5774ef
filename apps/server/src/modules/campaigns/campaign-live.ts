import { type Kysely, sql } from 'kysely';
import { can } from '@herald/shared/auth/permissions';
import type { TRole } from '@herald/shared/auth/roles';
import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import { CAMPAIGN_PROCESS_KIND, type TCampaignStatusEvent } from '@herald/shared/campaigns/campaign-live.schemas';
import { decodeMessage } from '@herald/shared/common/messages';
import type { TEventAudience, TServerEvent } from '@herald/shared/events/events.schemas';
import type { TProcessStatus } from '@herald/shared/processes/processes.schemas';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { ProcessesRepository } from '../../jobs/processes.repository.ts';

type Db = Kysely<DB>;

export interface CampaignLiveDeps {
  db: Db;
  bus: Pick<EventBus, 'publishMany'>;
  processes: Pick<ProcessesRepository, 'create' | 'update'>;
}

interface Figures {
  id: number;
  team_id: number;
  launched_by: number | null;
  name: string;
  status: TCampaignStatus;
  reason: string | null;
  started: boolean;
  process_id: number | null;
  recipients: number;
  messages: number;
  sent: number;
  /** Messages whose fate is settled (handed over, refused, skipped): the bar's numerator. */
  done: number;
  updated_at: Date;
}

/** A process shows a started campaign: sending, waiting to be resumed, or ended. */
const PROCESS_STATUS: Record<TCampaignStatus, TProcessStatus> = {
  draft: 'paused',
  scheduled: 'queued',
  processing: 'running',
  active: 'running',
  paused: 'paused',
  completed: 'completed',
  failed: 'failed',
  rejected: 'failed',
};

/** How often a running campaign's bar may move (counting its rows is not free on a large one). */
const PROGRESS_EVERY_MS = 2_000;
/** How often processes whose campaign was deleted (a paused one may be) are ended. */
const SWEEP_EVERY_MS = 10_000;

/**
 * A campaign as the team sees it move (decision 034): every status change, a user's or the
 * engine's, is a `CampaignStatus` event to the members who may read campaigns, and a started
 * campaign is a process in its launcher's popover (`campaigns.process_id`), its bar the messages
 * settled of those its steps send, its line `sent / messages` or why it stopped.
 */
export function createCampaignLive(deps: CampaignLiveDeps) {
  const { db } = deps;
  /** When each running campaign's bar was last told, and what it said (an unchanged bar is not written). */
  const lastProgress = new Map<number, { at: number; said: string }>();

  async function figuresOf(ids: number[]): Promise<Figures[]> {
    if (ids.length === 0) return [];
    const r = await sql<Omit<Figures, 'reason'> & { reason: string | null }>`
      select c.id, c.team_id, c.launched_by, c.name, c.status, c.process_id, c.updated_at,
        coalesce(c.paused_reason, c.failed_reason) as reason, c.started_at is not null as started,
        coalesce(r.n, 0) as recipients,
        coalesce((select sum(least(coalesce(r.n, 0), coalesce(s.limit_cap, r.n, 0))) from campaign_steps s
          where s.campaign_id = c.id and s.type = 'sms'), 0) as messages,
        coalesce(m.sent, 0) as sent, coalesce(m.done, 0) as done
      from campaigns c
      left join lateral (select count(*) as n from campaign_recipients x
        where x.campaign_id = c.id and x.skip_reason is null) r on c.started_at is not null
      left join lateral (select count(*) filter (where called_at is not null and state <> 'claimed') as sent,
          count(*) filter (where state not in ('pending', 'claimed')) as done
        from messages where campaign_id = c.id) m on c.started_at is not null
      where c.id = any(${ids}::bigint[])`.execute(db);
    // bigint counts and ids arrive as strings from PostgreSQL.
    return r.rows.map((x) => ({
      ...x,
      id: Number(x.id),
      team_id: Number(x.team_id),
      launched_by: x.launched_by === null ? null : Number(x.launched_by),
      reason: x.reason === null ? null : decodeMessage(x.reason).code,
      process_id: x.process_id === null ? null : Number(x.process_id),
      recipients: Number(x.recipients),
      messages: Number(x.messages),
      sent: Number(x.sent),
      done: Number(x.done),
      updated_at: new Date(x.updated_at),
    }));
  }

  /** The launcher's process for a started campaign, made once (two processes racing make one). */
  async function processOf(f: Figures): Promise<number | null> {
    if (f.process_id !== null || !f.started || f.launched_by === null) return f.process_id;
    const launcher = f.launched_by;
    return db.transaction().execute(async (tx) => {
      const row = await sql<{ process_id: string | null }>`select process_id from campaigns
        where id = ${f.id} for update`.execute(tx);
      const current = row.rows[0]?.process_id;
      if (current !== null && current !== undefined) return Number(current);
      const made = await tx
        .insertInto('processes')
        .values({
          team_id: f.team_id,
          user_id: launcher,
          kind: CAMPAIGN_PROCESS_KIND,
          title: f.name,
          status: 'running',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx.updateTable('campaigns').set({ process_id: made.id }).where('id', '=', f.id).execute();
      return Number(made.id);
    });
  }

  function processPatch(f: Figures) {
    const status = PROCESS_STATUS[f.status];
    const code =
      f.status === 'paused' || f.status === 'failed' ? (f.reason ?? `campaign_${f.status}`) : 'campaign_progress';
    const progress = f.status === 'completed' ? 100 : f.messages > 0 ? Math.min(99, (100 * f.done) / f.messages) : 0;
    return {
      status,
      phase: null,
      progress: Math.floor(progress),
      message: { code, params: { campaign_id: f.id, sent: f.sent, messages: f.messages } },
    };
  }

  /** Members of the team who may read campaigns: operators do not hear of them. */
  async function readersOf(teamId: number): Promise<number[]> {
    const users = await db.selectFrom('users').select(['id', 'role']).where('team_id', '=', teamId).execute();
    return users.filter((u) => can(u.role as TRole, 'campaigns:read')).map((u) => Number(u.id));
  }

  function statusEvent(f: Figures): TServerEvent {
    const payload: TCampaignStatusEvent = {
      id: f.id,
      name: f.name,
      status: f.status,
      reason: f.status === 'paused' || f.status === 'failed' ? f.reason : null,
      launched_by: f.launched_by,
      recipients: f.recipients,
      messages: f.messages,
      sent: f.sent,
      updated_at: f.updated_at.toISOString(),
    };
    return { type: 'CampaignStatus', payload };
  }

  /** Tells the process row and who listens; `withStatus`: the campaign's status changed too. */
  async function tell(list: Figures[], withStatus: boolean) {
    const items: Array<{ audience: TEventAudience; event: TServerEvent }> = [];
    for (const f of list) {
      const said = `${f.status}:${f.sent}:${f.done}:${f.messages}`;
      if (!withStatus && lastProgress.get(f.id)?.said === said) {
        lastProgress.set(f.id, { at: Date.now(), said });
        continue;
      }
      const processId = await processOf(f);
      if (processId !== null && f.launched_by !== null) {
        const process = await deps.processes.update(f.team_id, processId, processPatch(f));
        if (process)
          items.push({ audience: { userId: f.launched_by }, event: { type: 'ProcessStatus', payload: process } });
      }
      if (withStatus)
        for (const userId of await readersOf(f.team_id)) items.push({ audience: { userId }, event: statusEvent(f) });
      lastProgress.set(f.id, { at: Date.now(), said });
      if (f.status !== 'active' && f.status !== 'processing') lastProgress.delete(f.id);
    }
    await deps.bus.publishMany(items);
  }

  let sweptAt = 0;

  return {
    /**
     * A deleted campaign's process (a paused campaign may be deleted) would stay paused in the
     * popover for ever, which Clear leaves: it ends cancelled. Every ten seconds, on any process.
     */
    async sweep() {
      if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
      sweptAt = Date.now();
      const gone = await sql<{ id: string; team_id: string; user_id: string }>`update processes p
        set status = 'cancelled', phase = null, updated_at = now()
        where p.kind = ${CAMPAIGN_PROCESS_KIND} and p.status in ('queued', 'running', 'paused')
          and not exists (select 1 from campaigns c where c.process_id = p.id)
        returning p.id, p.team_id, p.user_id`.execute(db);
      const items: Array<{ audience: TEventAudience; event: TServerEvent }> = [];
      for (const r of gone.rows) {
        const process = await deps.processes.update(Number(r.team_id), Number(r.id), {});
        if (process)
          items.push({ audience: { userId: Number(r.user_id) }, event: { type: 'ProcessStatus', payload: process } });
      }
      await deps.bus.publishMany(items);
    },
    /** After a status change committed (a user's move, the engine's): the event and the process row. */
    async changed(ids: number[]) {
      await tell(await figuresOf([...new Set(ids)]), true);
    },
    /** Each tick: the bars of running campaigns, each at most every two seconds. */
    async progress(ids: number[]) {
      const now = Date.now();
      const due = ids.filter((id) => now - (lastProgress.get(id)?.at ?? 0) >= PROGRESS_EVERY_MS);
      await tell(await figuresOf(due), false);
    },
  };
}

export type CampaignLive = ReturnType<typeof createCampaignLive>;
