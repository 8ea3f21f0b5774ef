import type { Kysely } from 'kysely';
import {
  type TCampaignField,
  type TCampaignStatus,
  canDeleteCampaign,
  canEditCampaign,
  canMoveCampaign,
  DEFAULT_MANUAL_STATUSES,
} from '@herald/shared/campaigns/campaign-moves';
import type {
  TCampaign,
  TCampaignBatchResult,
  TCampaignListQuery,
  TCampaignLogAttribute,
  ZCreateCampaignRequest,
  ZUpdateCampaignRequest,
} from '@herald/shared/campaigns/campaigns.schemas';
import { DEFAULT_FREQUENCY_PER_MINUTE } from '@herald/shared/campaigns/campaigns.schemas';
import { defaultStart, instantToZoned } from '@herald/shared/campaigns/zoned-time';
import { done, englishOf, message, type TMessage } from '@herald/shared/common/messages';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { z } from 'zod';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import type { CampaignChecks } from './campaign-checks.ts';
import { toCampaign } from './campaign-view.ts';
import type { CampaignsDeps } from './campaigns.deps.ts';
import type { CampaignOrderField, CampaignsRepository, CampaignValues } from './campaigns.repository.ts';
import type { CampaignStepsRepository } from './campaign-steps.repository.ts';
import type { CampaignAudiencesRepository } from './campaign-audiences.repository.ts';

type CreateBody = z.infer<typeof ZCreateCampaignRequest>;
type UpdateBody = z.infer<typeof ZUpdateCampaignRequest>;
const ORDERABLE: CampaignOrderField[] = ['id', 'name', 'status', 'start_at', 'created_at', 'updated_at'];

export interface CampaignsServiceDeps extends CampaignsDeps {
  repo: CampaignsRepository;
  steps: CampaignStepsRepository;
  audiences: CampaignAudiencesRepository;
  checks: CampaignChecks;
  /** Refuses a launch that cannot start: its readiness, the plan, the first step's price. */
  assertLaunchable(user: AuthUser, campaignId: number): Promise<void>;
}

export const notFound = () => new AppError('not_found', message('campaign_not_found'));
const facts = (c: { status: TCampaignStatus; started_at: Date | null }) => ({
  status: c.status,
  started: c.started_at !== null,
});

/** Campaigns' own settings, their status changes and their life (decision 031). */
export function createCampaignsService(deps: CampaignsServiceDeps) {
  const { db, repo, checks } = deps;

  async function get(user: AuthUser, id: number): Promise<TCampaign> {
    const row = await repo.find(user.teamId, id);
    if (!row) throw notFound();
    return toCampaign(row);
  }

  /** Settings of a create or an update, checked; `current` is the row an update changes. */
  async function settingsOf(
    teamId: number,
    body: CreateBody,
    current: { timezone: string; start_at: Date | null; gateway_id: number | null; sender: string | null } | null,
  ): Promise<CampaignValues> {
    const v: CampaignValues = {};
    if (body.name !== undefined) v.name = body.name;
    if (body.gateway_id !== undefined) {
      if (body.gateway_id !== null) await checks.gateway(teamId, body.gateway_id);
      v.gateway_id = body.gateway_id;
    }
    // The sender is one of the gateway's: checked when either changes.
    const gatewayId = v.gateway_id !== undefined ? v.gateway_id : (current?.gateway_id ?? null);
    const sender = body.sender !== undefined ? body.sender : v.gateway_id !== undefined ? current?.sender : undefined;
    if (sender !== undefined) v.sender = sender ? await checks.sender(teamId, sender, gatewayId) : null;
    if (body.timezone !== undefined) v.timezone = checks.timezone(body.timezone);
    const zone = v.timezone ?? current?.timezone ?? 'UTC';
    if (body.start_at !== undefined) v.start_at = body.start_at === null ? null : checks.start(body.start_at, zone);
    if (body.frequency_per_minute !== undefined) v.frequency_per_minute = body.frequency_per_minute;
    if (body.quiet_hours !== undefined) v.quiet_hours = body.quiet_hours;
    if (body.quiet_from !== undefined) v.quiet_from = body.quiet_from;
    if (body.quiet_to !== undefined) v.quiet_to = body.quiet_to;
    if (body.skip_invalid_phones !== undefined) v.skip_invalid_phones = body.skip_invalid_phones;
    return v;
  }

  /** What an update really changes, as the log tells it. */
  function changes(before: Record<string, unknown>, after: CampaignValues): TCampaignLogAttribute[] {
    const plain = (x: unknown) =>
      x instanceof Date ? x.toISOString() : typeof x === 'string' && /^\d\d:\d\d:\d\d$/.test(x) ? x.slice(0, 5) : x;
    return Object.entries(after)
      .filter(([k, v]) => plain(before[k]) !== plain(v))
      .map(([name, v]) => ({
        name,
        value_from: plain(before[name]) as TCampaignLogAttribute['value_to'],
        value_to: plain(v) as TCampaignLogAttribute['value_to'],
      }));
  }

  function assertMove(
    row: { status: TCampaignStatus; started_at: Date | null } | undefined,
    to: TCampaignStatus,
    manual: TCampaignStatus[],
  ) {
    if (!row) throw notFound();
    if (row.status === to || !manual.includes(to) || !canMoveCampaign(facts(row), to, 'user'))
      throw AppError.field('status', 'campaign_status_not_allowed');
  }

  /**
   * One campaign's move. The launch checks read other modules' data on connections of their own,
   * so they run before the transaction (on the embedded database one connection is all there is);
   * the move is checked again under the row's lock.
   */
  async function move(user: AuthUser, id: number, to: TCampaignStatus, manual: TCampaignStatus[]) {
    assertMove(await repo.find(user.teamId, id), to, manual);
    if (to === 'scheduled') await deps.assertLaunchable(user, id);
    return db.transaction().execute((tx) => moveLocked(tx, user, id, to, manual));
  }

  async function moveLocked(
    tx: Kysely<DB>,
    user: AuthUser,
    id: number,
    to: TCampaignStatus,
    manual: TCampaignStatus[],
  ) {
    const row = await repo.lock(tx, user.teamId, id);
    assertMove(row, to, manual);
    const from = (row as NonNullable<typeof row>).status;
    const values: CampaignValues & { status: TCampaignStatus } = { status: to };
    if (to === 'scheduled') {
      values.launched_by = user.id;
      values.paused_reason = null;
    }
    if (to === 'draft') values.launched_by = null;
    await repo.update(tx, user.teamId, id, values);
    await appendCampaignLog(tx, {
      campaignId: id,
      teamId: user.teamId,
      userId: user.id,
      type: 'campaign_status_changed',
      data: { from, to, attributes: [{ name: 'status', value_from: from, value_to: to }] },
    });
    return { id, from, to };
  }

  async function announce(user: AuthUser, moved: Array<{ id: number; from: TCampaignStatus; to: TCampaignStatus }>) {
    if (moved.length > 0)
      await deps.domainEvents?.emit('campaigns.status_changed', {
        teamId: user.teamId,
        userId: user.id,
        campaigns: moved,
      });
  }

  return {
    get,

    async page(user: AuthUser, query: TCampaignListQuery) {
      const args = pageArgs(query, ORDERABLE, { field: 'id', dir: 'desc' });
      const { rows, total } = await repo.page(user.teamId, { ...args, status: query.status });
      return { data: rows.map(toCampaign), meta: pageMeta(query.page, query.limit, total) };
    },

    async aggregations(user: AuthUser) {
      const statuses = await repo.aggregations(user.teamId);
      return { total: Object.values(statuses).reduce((a, b) => a + b, 0), statuses };
    },

    async create(user: AuthUser, body: CreateBody, browserZone?: string): Promise<TCampaign> {
      const zone = body.timezone ?? (browserZone ? safeZone(checks, browserZone) : 'UTC');
      const gatewayId = body.gateway_id !== undefined ? body.gateway_id : await checks.autoGateway(user.teamId);
      const v = await settingsOf(user.teamId, { ...body, timezone: zone, gateway_id: gatewayId }, null);
      v.sender ??= await checks.autoSender(user.teamId, v.gateway_id ?? null);
      v.start_at ??= defaultStart(new Date());
      v.frequency_per_minute ??= DEFAULT_FREQUENCY_PER_MINUTE;
      const id = await db.transaction().execute(async (tx) => {
        const count = await tx
          .selectFrom('campaigns')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team_id', '=', user.teamId)
          .executeTakeFirstOrThrow();
        const name = v.name ?? `Campaign ${Number(count.n) + 1}`;
        const newId = await repo.insert(tx, user.teamId, user.id, { ...v, name });
        await appendCampaignLog(tx, {
          campaignId: newId,
          teamId: user.teamId,
          userId: user.id,
          type: 'campaign_created',
          data: { name },
        });
        return newId;
      });
      return get(user, id);
    },

    async update(user: AuthUser, id: number, body: UpdateBody): Promise<TCampaign> {
      // Checked before the transaction: the gateway's check reads through the gateways module.
      const before = await repo.find(user.teamId, id);
      if (!before) throw notFound();
      const v = await settingsOf(user.teamId, body, before);
      await db.transaction().execute(async (tx) => {
        const row = await repo.lock(tx, user.teamId, id);
        if (!row) throw notFound();
        if (body.version !== undefined && body.version !== row.version)
          throw new AppError('conflict', message('campaign_version_conflict'));
        if (v.timezone !== undefined && body.start_at === undefined) {
          // A new zone keeps the start's wall-clock time, as the form shows it.
          v.start_at = row.start_at && checks.start(instantToZoned(row.start_at, row.timezone), v.timezone);
        }
        const changed = changes(row as unknown as Record<string, unknown>, v);
        for (const c of changed) {
          const rule = canEditCampaign(facts(row), c.name as TCampaignField);
          if (!rule.ok) throw AppError.field(c.name, rule.code);
        }
        if (changed.length === 0) return;
        const next = Object.fromEntries(changed.map((c) => [c.name, v[c.name as keyof CampaignValues]]));
        await repo.update(tx, user.teamId, id, next);
        await appendCampaignLog(tx, {
          campaignId: id,
          teamId: user.teamId,
          userId: user.id,
          type: 'campaign_updated',
          data: { attributes: changed },
        });
      });
      return get(user, id);
    },

    async delete(user: AuthUser, id: number) {
      await db.transaction().execute(async (tx) => {
        const row = await repo.lock(tx, user.teamId, id);
        if (!row) throw notFound();
        const rule = canDeleteCampaign(facts(row));
        if (!rule.ok) throw new AppError('conflict', message(rule.code));
        await repo.delete(tx, user.teamId, [id]);
      });
      return done('campaign_deleted');
    },

    async deleteMany(user: AuthUser, ids: number[]): Promise<TCampaignBatchResult> {
      const unique = [...new Set(ids)];
      const deleted = await db.transaction().execute((tx) => repo.delete(tx, user.teamId, unique));
      const refused = unique
        .filter((id) => !deleted.includes(id))
        .map((id) => ({ id, reason: message('campaign_not_deletable') }));
      // Another team's id and a campaign being sent are refused alike: nothing says which exists.
      const m = message('campaigns_deleted', { count: deleted.length });
      return { message: englishOf(m), code: m.code, done: deleted.length, refused };
    },

    async duplicate(user: AuthUser, id: number): Promise<TCampaign> {
      const copyId = await db.transaction().execute(async (tx) => {
        const row = await repo.find(user.teamId, id, tx);
        if (!row) throw notFound();
        const newId = await repo.insert(tx, user.teamId, user.id, {
          name: `${row.name} (copy)`.slice(0, 255),
          gateway_id: row.gateway_id,
          sender: row.sender,
          timezone: row.timezone,
          start_at: defaultStart(new Date()),
          frequency_per_minute: row.frequency_per_minute,
          quiet_hours: row.quiet_hours,
          quiet_from: row.quiet_from,
          quiet_to: row.quiet_to,
          skip_invalid_phones: row.skip_invalid_phones,
        });
        await deps.steps.copy(tx, user.teamId, id, newId);
        await deps.audiences.copy(tx, user.teamId, id, newId);
        await appendCampaignLog(tx, {
          campaignId: newId,
          teamId: user.teamId,
          userId: user.id,
          type: 'campaign_created',
          data: { name: `${row.name} (copy)`, duplicate_of: id },
        });
        return newId;
      });
      return get(user, copyId);
    },

    async setStatus(user: AuthUser, id: number, to: TCampaignStatus, manual = DEFAULT_MANUAL_STATUSES) {
      const moved = await move(user, id, to, [...manual]);
      await announce(user, [moved]);
      return get(user, id);
    },

    /** Each campaign in a transaction of its own: one refused leaves the others changed. */
    async setStatusMany(user: AuthUser, ids: number[], to: TCampaignStatus, manual = DEFAULT_MANUAL_STATUSES) {
      const moved: Array<{ id: number; from: TCampaignStatus; to: TCampaignStatus }> = [];
      const refused: TCampaignBatchResult['refused'] = [];
      for (const id of new Set(ids)) {
        try {
          moved.push(await move(user, id, to, [...manual]));
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          refused.push({
            id,
            reason: (error.detail as TMessage | undefined) ?? message('campaign_status_not_allowed'),
          });
        }
      }
      await announce(user, moved);
      const m = message('campaigns_status_changed', { count: moved.length });
      return { message: englishOf(m), code: m.code, done: moved.length, refused };
    },
  };
}

/** The browser's zone when the runtime knows it, else UTC: a header never refuses a create. */
function safeZone(checks: CampaignChecks, zone: string): string {
  try {
    return checks.timezone(zone);
  } catch {
    return 'UTC';
  }
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
