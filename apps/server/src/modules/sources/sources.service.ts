import type { TPageQuery } from '@herald/shared/common/pagination.schemas';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { message } from '@herald/shared/common/messages';
import { AppError } from '../../http/app-error.ts';
import type { VersionedCache } from '../../db/versioned-cache.ts';
import { pageArgs } from '../../http/paging.ts';
import type { PlanLimits } from '../../db/plan-limits.ts';
import { type Activity, SOURCE_ORDER, type SourcesRepository } from './sources.repository.ts';

const EMPTY: TLeadCounts = {
  total_leads: 0,
  total_today: 0,
  total_last_30_days: 0,
  duplicate: 0,
  total_flagged_leads: 0,
  total_blacklisted_leads: 0,
  percentage_lookup: 0,
  percentage_verified: 0,
};

/**
 * What another module does before lists (or sources, with all their lists) are deleted, e.g. stop
 * the work under way into them; the function it returns runs once the delete has committed, e.g. to
 * tell their users.
 */
export type ListsDeletingHandler = (
  teamId: number,
  by: 'list_id' | 'source_id',
  ids: number[],
) => Promise<() => Promise<void>>;

/** Sources and lists with their lead counts (cached up to 5 minutes, fresh after own changes). */
export function createSourcesService(repo: SourcesRepository, cache: VersionedCache, limits?: PlanLimits) {
  // Registered at build time by the modules that hold work in lists; sources knows none of them.
  const deletingHandlers: ListsDeletingHandler[] = [];
  async function listsDeleting(teamId: number, by: 'list_id' | 'source_id', ids: number[]) {
    const afterDelete: Array<() => Promise<void>> = [];
    for (const handler of deletingHandlers) afterDelete.push(await handler(teamId, by, ids));
    return async () => {
      for (const after of afterDelete) await after();
    };
  }

  async function counts(teamId: number, by: 'source_id' | 'list_id', ids: number[]) {
    const version = await repo.dataVersion(teamId);
    const key = `${teamId}:${by}:${[...ids].sort((a, b) => a - b).join(',')}`;
    return cache.get(key, version, () => repo.countLeads(teamId, by, ids));
  }
  const withCounts = <T extends { id: number }>(rows: T[], map: Map<number, TLeadCounts>) =>
    rows.map((r) => {
      const { duplicates_today: _, ...c } = (map.get(r.id) ?? EMPTY) as TLeadCounts & { duplicates_today?: number };
      return { ...r, ...c };
    });
  const serialize = <T extends { created_at: Date; status: Activity }>(r: T) => ({
    ...r,
    created_at: r.created_at.toISOString(),
  });

  async function requireSource(teamId: number, id: number) {
    const source = await repo.findSource(teamId, id);
    if (!source) throw new AppError('not_found', message('source_not_found'));
    return source;
  }
  async function requireList(teamId: number, id: number) {
    const list = await repo.findList(teamId, id);
    if (!list) throw new AppError('not_found', message('list_not_found'));
    return list;
  }
  const listOut = (l: Awaited<ReturnType<typeof requireList>>) => ({
    ...serialize(l),
    is_active: l.status === 'active',
  });

  async function sourcesOut(
    teamId: number,
    rows: Array<{ id: number; name: string; status: Activity; created_at: Date }>,
  ) {
    const ids = rows.map((r) => r.id);
    const [map, lists] = await Promise.all([counts(teamId, 'source_id', ids), repo.findListsOfSources(teamId, ids)]);
    return withCounts(rows.map(serialize), map).map((s) => ({
      ...s,
      lists: lists.filter((l) => l.source_id === s.id).map((l) => ({ id: l.id, name: l.name, status: l.status })),
    }));
  }

  return {
    /** Registers a handler that runs before every delete of lists or sources (see ListsDeletingHandler). */
    onListsDeleting(handler: ListsDeletingHandler) {
      deletingHandlers.push(handler);
    },

    async page(teamId: number, query: TPageQuery) {
      const args = pageArgs(query, SOURCE_ORDER, { field: 'created_at', dir: 'desc' });
      const { rows, total } = await repo.findSourcePage(teamId, args);
      return { data: await sourcesOut(teamId, rows), meta: pageMeta(query.page, query.limit, total) };
    },

    async total(teamId: number) {
      const version = await repo.dataVersion(teamId);
      const map = await cache.get(`${teamId}:team`, version, () => repo.countLeads(teamId, 'team_id'));
      const c = map.get(teamId) as (TLeadCounts & { duplicates_today: number }) | undefined;
      return {
        total_leads: c?.total_leads ?? 0,
        total_today: c?.total_today ?? 0,
        duplicates_today: c?.duplicates_today ?? 0,
      };
    },

    async get(teamId: number, id: number) {
      return (await sourcesOut(teamId, [await requireSource(teamId, id)]))[0];
    },

    async aggregations(teamId: number, id: number) {
      await requireSource(teamId, id);
      return (await counts(teamId, 'source_id', [id])).get(id) ?? EMPTY;
    },

    async create(teamId: number, name: string) {
      const row = await repo.transaction(async (tx) => {
        await limits?.assertCanCreate(tx, teamId, 'source-limit');
        return repo.createSource(teamId, name, tx);
      });
      return (await sourcesOut(teamId, [row]))[0];
    },

    async update(teamId: number, id: number, patch: { name?: string; status?: Activity }) {
      const row = await repo.updateSource(teamId, id, patch);
      if (!row) throw new AppError('not_found', message('source_not_found'));
      return (await sourcesOut(teamId, [row]))[0];
    },

    async delete(teamId: number, ids: number[]) {
      const found = await repo.findSourcesByIds(teamId, ids);
      if (found.length !== new Set(ids).size) throw new AppError('not_found', message('source_not_found'));
      const announce = await listsDeleting(teamId, 'source_id', ids);
      const deleted = await repo.deleteSources(teamId, ids);
      await announce();
      return deleted;
    },

    async allWithLists(teamId: number, limit: number) {
      const { rows } = await repo.findSourcePage(teamId, { offset: 0, limit, order: { field: 'name', dir: 'asc' } });
      const lists = await repo.findListsOfSources(
        teamId,
        rows.map((r) => r.id),
      );
      return rows.map((s) => ({
        id: s.id,
        name: s.name,
        status: s.status,
        lists: lists.filter((l) => l.source_id === s.id).map((l) => ({ id: l.id, name: l.name, status: l.status })),
      }));
    },

    async listPage(teamId: number, sourceIds: number[] | undefined, query: TPageQuery) {
      const args = pageArgs(query, SOURCE_ORDER, { field: 'created_at', dir: 'desc' });
      const { rows, total } = await repo.findListPage(teamId, sourceIds, args);
      const map = await counts(
        teamId,
        'list_id',
        rows.map((r) => r.id),
      );
      return { data: withCounts(rows.map(listOut), map), meta: pageMeta(query.page, query.limit, total) };
    },

    async sourceLists(teamId: number, sourceId: number, query: TPageQuery) {
      await requireSource(teamId, sourceId);
      return this.listPage(teamId, [sourceId], query);
    },

    async getList(teamId: number, id: number) {
      const list = await requireList(teamId, id);
      return withCounts([listOut(list)], await counts(teamId, 'list_id', [id]))[0];
    },

    async listAggregations(teamId: number, id: number) {
      await requireList(teamId, id);
      return (await counts(teamId, 'list_id', [id])).get(id) ?? EMPTY;
    },

    async createList(teamId: number, sourceId: number, name: string, status: Activity) {
      await requireSource(teamId, sourceId);
      const row = await repo.transaction(async (tx) => {
        await limits?.assertCanCreate(tx, teamId, 'list-limit');
        return repo.createList(teamId, sourceId, name, status, tx);
      });
      return withCounts([listOut(row)], new Map())[0];
    },

    async updateList(teamId: number, id: number, patch: { name?: string; status?: Activity }) {
      const row = await repo.updateList(teamId, id, patch);
      if (!row) throw new AppError('not_found', message('list_not_found'));
      return withCounts([listOut(row)], await counts(teamId, 'list_id', [id]))[0];
    },

    async deleteLists(teamId: number, ids: number[]) {
      for (const id of new Set(ids)) await requireList(teamId, id);
      const announce = await listsDeleting(teamId, 'list_id', ids);
      const deleted = await repo.deleteLists(teamId, ids);
      await announce();
      return deleted;
    },

    /** Cached totals for the leads table's pagination: the whole team's, or one list's. */
    async leadTotals(teamId: number, listId?: number, knownVersion?: number) {
      const version = knownVersion ?? (await repo.dataVersion(teamId));
      const map = listId
        ? await cache.get(`${teamId}:list_id:${listId}`, version, () => repo.countLeads(teamId, 'list_id', [listId]))
        : await cache.get(`${teamId}:team`, version, () => repo.countLeads(teamId, 'team_id'));
      const c = map.get(listId ?? teamId);
      return { total: c?.total_leads ?? 0, blacklisted: c?.total_blacklisted_leads ?? 0 };
    },

    /** The list, checked to belong to the source (leads are created into a list of a source). */
    async requireListOfSource(teamId: number, sourceId: number, listId: number) {
      const list = await requireList(teamId, listId);
      await requireSource(teamId, sourceId);
      if (list.source_id !== sourceId) throw AppError.field('list_id', 'list_not_in_source');
      return list;
    },
  };
}

export type SourcesService = ReturnType<typeof createSourcesService>;
