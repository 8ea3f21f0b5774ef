import { type Kysely, sql } from 'kysely';
import { message } from '@herald/shared/common/messages';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import {
  canStartLookup,
  canStopLookup,
  type TLookup,
  type TLookupPreview,
  type TLookupsAnswer,
  type TLookupStatusSummary,
} from '@herald/shared/lookups/lookups.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { fillFromPhones, previewLists } from './lookup-fill.ts';
import type { LookupGateways } from './lookup-gateway.ts';
import type { LookupLive } from './lookup-live.ts';
import { freshDays, type LookupMoves } from './lookup-moves.ts';
import type { LookupsRepository } from './lookups.repository.ts';

type Db = Kysely<DB>;
const notFound = () => new AppError('not_found', message('lookup_not_found'));

export interface LookupsServiceDeps {
  db: Db;
  repo: LookupsRepository;
  moves: LookupMoves;
  live: LookupLive;
  gateways: LookupGateways;
  money: (teamId: number, userId: number) => Promise<{ price: number; balance: number; currency: string }>;
}

/** What the lookups calls do (spec 4 and 7, decision 040); every id is checked against the team. */
export function createLookupsService(deps: LookupsServiceDeps) {
  const { db, repo, moves, live } = deps;

  async function one(teamId: number, id: number): Promise<TLookup> {
    const [l] = await repo.views(teamId, [id]);
    if (!l) throw notFound();
    return l;
  }

  /** All of `ids` must be the team's: one stranger's id refuses the whole call, nothing changed. */
  async function own(teamId: number, ids: number[]) {
    const rows = await repo.statuses(teamId, [...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw notFound();
    return rows;
  }

  async function listsOf(teamId: number, kind: 'sources' | 'lists', ids: number[]) {
    const unique = [...new Set(ids)];
    const table = kind === 'sources' ? 'sources' : 'lists';
    const found = await db
      .selectFrom(table)
      .select('id')
      .where('team_id', '=', teamId)
      .where('id', 'in', unique)
      .execute();
    if (found.length !== unique.length) throw new AppError('not_found');
    const lists = await db
      .selectFrom('lists')
      .select(['id', 'source_id'])
      .where('team_id', '=', teamId)
      .where(kind === 'sources' ? 'source_id' : 'id', 'in', unique)
      .orderBy('id')
      .execute();
    return lists.map((l) => ({ id: Number(l.id), sourceId: Number(l.source_id) }));
  }

  async function createForList(
    teamId: number,
    userId: number,
    a: { listId: number; gatewayId?: number; start: boolean },
  ): Promise<TLookup> {
    const list = await db
      .selectFrom('lists')
      .select(['id', 'source_id'])
      .where('team_id', '=', teamId)
      .where('id', '=', a.listId)
      .executeTakeFirst();
    if (!list) throw new AppError('not_found');
    if (a.gatewayId !== undefined && !(await deps.gateways.usable(teamId, a.gatewayId)))
      throw AppError.field('gateway_id', 'lookup_gateway_unusable');
    let id = (await repo.openForList(teamId, a.listId))?.id;
    if (id === undefined) {
      const made = await db
        .insertInto('lookups')
        .values({
          team_id: teamId,
          type: 'list',
          source_id: Number(list.source_id),
          list_id: a.listId,
          gateway_id: a.gatewayId ?? (await deps.gateways.defaultFor(teamId)),
          user_id: userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(made.id);
    } else if (a.gatewayId !== undefined)
      await db
        .updateTable('lookups')
        .set({ gateway_id: a.gatewayId })
        .where('id', '=', id)
        .where('status', '<>', 1)
        .execute();
    if (a.start) await moves.start(teamId, userId, id);
    else await moves.fill(teamId, id, a.listId, (await deps.money(teamId, userId)).price);
    await live.changed([id]);
    return one(teamId, id);
  }

  /**
   * The rows as they are now and the toast: `code`, unless none of them runs after a start because
   * of a reason (no gateway, no money), which is then the message.
   */
  async function answer(
    teamId: number,
    ids: number[],
    code: Parameters<typeof message>[0],
    started = false,
  ): Promise<TLookupsAnswer> {
    const lookups = await repo.views(teamId, ids);
    const reason = lookups.find((l) => l.reason)?.reason;
    if (started && reason && !lookups.some((l) => l.status === 1)) return { message: { code: reason }, lookups };
    return { message: message(code), lookups };
  }

  async function startMany(teamId: number, userId: number, ids: number[]) {
    for (const l of await own(teamId, ids)) if (canStartLookup(l.status)) await moves.start(teamId, userId, l.id);
    await live.changed(ids);
  }

  return {
    get: (teamId: number, id: number) => repo.views(teamId, [id]).then((r) => r[0] ?? null),
    createForList,

    /**
     * A campaign lookup step's one lookup (decision 041): made once per step — the unique index
     * refuses a second, and a call after a crash finds the first and starts it if it never started.
     */
    async createForStep(
      teamId: number,
      userId: number,
      a: { campaignStepId: number; phones: string[]; gatewayId: number | null },
    ): Promise<number> {
      const money = await deps.money(teamId, userId);
      const days = await freshDays(db, teamId);
      const gatewayId = a.gatewayId ?? (await deps.gateways.defaultFor(teamId));
      const made = await db.transaction().execute(async (tx) => {
        const row = await sql<{ id: string }>`insert into lookups (team_id, type, campaign_step_id, gateway_id, user_id)
          values (${teamId}, 'campaign_step', ${a.campaignStepId}, ${gatewayId}, ${userId})
          on conflict (campaign_step_id) where campaign_step_id is not null do nothing returning id`.execute(tx);
        const id = row.rows[0] && Number(row.rows[0].id);
        if (id)
          await fillFromPhones(tx, { lookupId: id, teamId, phones: a.phones, freshDays: days, price: money.price });
        return id;
      });
      const existing = await db
        .selectFrom('lookups')
        .select(['id', 'status', 'paused_reason'])
        .where('team_id', '=', teamId)
        .where('campaign_step_id', '=', a.campaignStepId)
        .executeTakeFirstOrThrow();
      const id = Number(existing.id);
      if (made || (existing.status === 0 && existing.paused_reason === null)) {
        await moves.start(teamId, userId, id);
        await live.changed([id]);
      }
      return id;
    },

    /** A campaign's pause and resume move its step's lookup along. */
    async startOne(teamId: number, userId: number, id: number) {
      await moves.start(teamId, userId, id);
      await live.changed([id]);
    },
    async stopOne(teamId: number, id: number) {
      await moves.stop(teamId, id);
      await live.changed([id]);
    },

    async page(
      user: AuthUser,
      q: { page: number; limit: number; search?: string; order?: Array<{ field: string; dir: 'asc' | 'desc' }> },
    ) {
      const { rows, total } = await repo.page(user.teamId, {
        offset: (q.page - 1) * q.limit,
        limit: q.limit,
        search: q.search,
        order: q.order?.[0],
      });
      return { data: rows, meta: pageMeta(q.page, q.limit, total) };
    },

    async summary(user: AuthUser): Promise<TLookupStatusSummary> {
      const running = await repo.running(user.teamId);
      const money = await deps.money(user.teamId, user.id);
      const times = running.map((l) => l.time_left).filter((t): t is number => t !== null);
      return {
        in_progress: running.length > 0,
        is_paid: money.price > 0,
        looked_up_count: running.reduce((s, l) => s + l.phones - l.count, 0),
        time_left: times.length > 0 ? Math.max(...times) : null,
        available_account_balance: money.balance,
        price: money.price,
        currency: money.currency,
      };
    },

    async preview(user: AuthUser, body: { source_ids?: number[]; list_ids?: number[] }): Promise<TLookupPreview> {
      const lists = [
        ...(body.source_ids ? await listsOf(user.teamId, 'sources', body.source_ids) : []),
        ...(body.list_ids ? await listsOf(user.teamId, 'lists', body.list_ids) : []),
      ];
      const ids = [...new Set(lists.map((l) => l.id))];
      const { phones, fresh } = await previewLists(db, user.teamId, ids, await freshDays(db, user.teamId));
      const money = await deps.money(user.teamId, user.id);
      const toPay = phones - fresh;
      return {
        phones,
        fresh,
        to_pay: toPay,
        price: money.price,
        total: toPay * money.price,
        balance: money.balance,
        currency: money.currency,
        lists: ids.length,
      };
    },

    async create(
      user: AuthUser,
      body: { list_id: number; gateway_id?: number; start: boolean },
    ): Promise<TLookupsAnswer> {
      const l = await createForList(user.teamId, user.id, {
        listId: body.list_id,
        gatewayId: body.gateway_id,
        start: body.start,
      });
      return {
        message: message(l.status === 1 ? 'lookup_has_been_started' : ((l.reason as never) ?? 'lookup_stopped')),
        lookups: [l],
      };
    },

    async update(user: AuthUser, id: number, body: { gateway_id: number }): Promise<TLookup> {
      const l = await one(user.teamId, id);
      if (l.status === 1) throw new AppError('validation_failed', message('lookup_running_locked'));
      if (!(await deps.gateways.usable(user.teamId, body.gateway_id)))
        throw AppError.field('gateway_id', 'lookup_gateway_unusable');
      await db
        .updateTable('lookups')
        .set({ gateway_id: body.gateway_id, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await live.changed([id]);
      return one(user.teamId, id);
    },

    async setStatus(user: AuthUser, id: number, status: 1 | 2): Promise<TLookupsAnswer> {
      const l = await one(user.teamId, id);
      if (status === 1 ? !canStartLookup(l.status) : !canStopLookup(l.status))
        throw new AppError('validation_failed', message('lookup_move_invalid'));
      if (status === 1) await moves.start(user.teamId, user.id, id);
      else await moves.stop(user.teamId, id);
      await live.changed([id]);
      const [now] = await repo.views(user.teamId, [id]);
      const code = now.status === 1 ? 'lookup_started' : now.reason && status === 1 ? now.reason : 'lookup_stopped';
      return { message: message(code as never), lookups: [now] };
    },

    async remove(user: AuthUser, id: number) {
      await one(user.teamId, id);
      await moves.remove(user.teamId, id);
    },

    async startMany(user: AuthUser, ids: number[]) {
      await startMany(user.teamId, user.id, ids);
      return answer(user.teamId, ids, ids.length === 1 ? 'lookup_has_been_started' : 'lookups_have_been_started', true);
    },

    async stopMany(user: AuthUser, ids: number[]) {
      for (const l of await own(user.teamId, ids)) if (canStopLookup(l.status)) await moves.stop(user.teamId, l.id);
      await live.changed(ids);
      return answer(user.teamId, ids, 'lookup_stopped');
    },

    /** `sources/lookup`, `sources/lists/lookup`: one lookup per list, an unfinished one started again. */
    async fromSelection(user: AuthUser, kind: 'sources' | 'lists', ids: number[]): Promise<TLookupsAnswer> {
      const lists = await listsOf(user.teamId, kind, ids);
      const made: number[] = [];
      for (const list of lists)
        made.push((await createForList(user.teamId, user.id, { listId: list.id, start: true })).id);
      return answer(
        user.teamId,
        made,
        made.length === 1 ? 'lookup_has_been_started' : 'lookups_have_been_started',
        true,
      );
    },
    /** The team's results by phone (`phone_lookups` rows). */
    results: repo.results,
  };
}
export type LookupsService = ReturnType<typeof createLookupsService>;
