import type { PlanLimits } from '../../db/plan-limits.ts';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { pageMeta, type TPageQuery } from '@herald/shared/common/pagination.schemas';
import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import { parentRuleError, type TSegmentCondition } from '@herald/shared/segments/segment-conditions';
import type { TCreateSegmentRequest, TSegment } from '@herald/shared/segments/segments.schemas';
import { message } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { VersionedCache } from '../../db/versioned-cache.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import { type ChainLink, type CompileContext, compileChain, readsLeadRowOnly } from './filter-compiler.ts';
import { LEAD_ORDER_FIELDS, type SegmentLeadsRepository } from './segment-leads.repository.ts';
import type { SegmentOrderField, SegmentRow, SegmentsRepository } from './segments.repository.ts';

export interface SegmentsDeps {
  repo: SegmentsRepository;
  leads: SegmentLeadsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  /** The leads module's values of these leads, as lead pages show them. */
  valuesOf: (teamId: number, leadIds: number[]) => Promise<Array<TLeadValue & { lead_id: number }>>;
  defaultCountry?: (teamId: number) => Promise<string>;
  /** Counts keyed by the team's data version and the versions of the segment's chain. */
  counts: VersionedCache;
  /** The plan's audience limit (decision 015); none without it. */
  limits?: PlanLimits;
}

/** Filters whose values are ids of the team's rows: another team's id is refused as unknown. */
const OWNED_IDS = {
  source: { table: 'sources', unknown: 'unknown_source' },
  list: { table: 'lists', unknown: 'unknown_list' },
  campaigns: { table: 'campaigns', unknown: 'unknown_campaign' },
} as const;

const SEGMENT_ORDER: SegmentOrderField[] = ['id', 'name', 'created_at'];
type Listed = SegmentRow & { parent_name: string | null; segments_count: number | string | null };

/** The rules of audiences and segments (decision 010); knows no HTTP and no SQL text. */
export function createSegmentsService(deps: SegmentsDeps) {
  const { repo } = deps;

  async function requireChain(teamId: number, id: number) {
    const chain = await repo.chain(teamId, id);
    if (chain.length === 0) throw new AppError('not_found', message('segment_not_found'));
    return chain;
  }

  async function compileContext(teamId: number): Promise<CompileContext> {
    const [attributes, presenceBits, phoneCountry] = await Promise.all([
      deps.attributes(teamId),
      repo.presenceBits(teamId),
      deps.defaultCountry?.(teamId),
    ]);
    return { teamId, attributeTypes: new Map(attributes.map((a) => [a.id, a.type])), presenceBits, phoneCountry };
  }

  /** The chain's membership as a lead query, and whether its count may be read in ranges. */
  async function predicate(teamId: number, chain: readonly ChainLink[]) {
    const ctx = await compileContext(teamId);
    return { where: compileChain(chain, ctx), inRanges: readsLeadRowOnly(chain, ctx) };
  }

  function countsOf(user: AuthUser, chain: SegmentRow[], search?: string) {
    const key = `${user.teamId}:${chain.map((l) => `${l.id}.${l.version}`).join('/')}:${search ?? ''}`;
    // A count may read every lead of the team: bulk work, so sessions and pages go first (decision 013).
    return deps.counts.get(key, user.dataVersion, async () =>
      runAsBulk(async () => deps.leads.count(user.teamId, { ...(await predicate(user.teamId, chain)), search })),
    );
  }

  function toSegment(row: Listed, leadsCount: number | null): TSegment {
    return {
      id: Number(row.id),
      name: row.name,
      ignore_new_leads: row.ignore_new_leads,
      filters: row.conditions,
      parent_segment_id: row.parent_id === null ? null : Number(row.parent_id),
      parent: row.parent_id === null ? null : { id: Number(row.parent_id), name: row.parent_name ?? '' },
      segments_count: Number(row.segments_count ?? 0),
      leads_count: leadsCount,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  async function get(user: AuthUser, id: number): Promise<TSegment> {
    const row = await repo.findById(user.teamId, id);
    if (!row) throw new AppError('not_found', message('segment_not_found'));
    const chain = await requireChain(user.teamId, id);
    return toSegment(row as Listed, (await countsOf(user, chain)).total);
  }

  /** Checks a condition list against the segment's place and the team's attributes, sources, lists. */
  async function checkConditions(teamId: number, conditions: TSegmentCondition[], hasParent: boolean) {
    const parentError = parentRuleError(conditions, hasParent);
    if (parentError) throw AppError.field('filters', parentError);
    const attributeIds = new Set((await deps.attributes(teamId)).map((a) => a.id));
    for (const c of conditions) {
      if (typeof c.id === 'number' && !attributeIds.has(c.id)) throw AppError.field('filters', 'unknown_attribute');
      const owned = OWNED_IDS[c.id as keyof typeof OWNED_IDS];
      if (owned) {
        const ids = c.values.map(Number);
        const found = await repo.existingIds(teamId, owned.table, ids);
        if (ids.some((i) => !found.has(i))) throw AppError.field('filters', owned.unknown);
      }
    }
  }

  /**
   * Saves conditions (and the switch) in one transaction; a frozen segment takes its members from
   * what its chain matches now, with its new conditions.
   */
  async function save(
    user: AuthUser,
    chain: SegmentRow[],
    patch: { name?: string; ignore_new_leads?: boolean; conditions?: TSegmentCondition[] },
  ) {
    const segment = chain[chain.length - 1];
    if (patch.conditions) await checkConditions(user.teamId, patch.conditions, segment.parent_id !== null);
    const frozen = patch.ignore_new_leads ?? segment.ignore_new_leads;
    const refreeze = frozen && (patch.conditions !== undefined || !segment.ignore_new_leads || !segment.frozen_at);
    const where = refreeze
      ? (
          await predicate(user.teamId, [
            ...chain.slice(0, -1),
            { ...segment, ignore_new_leads: false, conditions: patch.conditions ?? segment.conditions },
          ])
        ).where
      : undefined;
    await repo.transaction(async (tx) => {
      await repo.update(user.teamId, segment.id, patch, tx);
      if (where) await repo.freeze(user.teamId, segment.id, where, tx);
      else if (!frozen && segment.frozen_at) await repo.unfreeze(user.teamId, segment.id, tx);
    });
    return get(user, segment.id);
  }

  async function page(user: AuthUser, parentId: number | null, query: TPageQuery) {
    const { rows, total } = await repo.findPage(user.teamId, {
      parentId,
      ...pageArgs(query, SEGMENT_ORDER, { field: 'created_at', dir: 'desc' }),
    });
    // Counts one segment at a time (cached per version): the embedded database is one connection.
    const data: TSegment[] = [];
    for (const row of rows) {
      const chain = await repo.chain(user.teamId, Number(row.id));
      data.push(toSegment(row as Listed, (await countsOf(user, chain)).total));
    }
    return { data, meta: pageMeta(query.page, query.limit, total) };
  }

  return {
    get,
    requireChain,
    predicate,
    list: (user: AuthUser, query: TPageQuery) => page(user, null, query),

    async children(user: AuthUser, id: number, query: TPageQuery) {
      await requireChain(user.teamId, id);
      return page(user, id, query);
    },

    async create(user: AuthUser, input: TCreateSegmentRequest, parentId: number | null = null) {
      const ancestors = parentId === null ? [] : await requireChain(user.teamId, parentId);
      const conditions = input.filters ?? [];
      await checkConditions(user.teamId, conditions, parentId !== null);
      const id = await repo.transaction(async (tx) => {
        await deps.limits?.assertCanCreate(tx, user.teamId, 'audience-limit');
        return repo.insert(
          user.teamId,
          { parent_id: parentId, name: input.name, ignore_new_leads: input.ignore_new_leads, conditions },
          tx,
        );
      });
      if (input.ignore_new_leads) {
        const chain = [...ancestors, ...(await repo.chain(user.teamId, id)).slice(-1)];
        return save(user, chain, {});
      }
      return get(user, id);
    },

    async clone(user: AuthUser, id: number, name?: string) {
      const chain = await requireChain(user.teamId, id);
      const original = chain[chain.length - 1];
      const copyId = await repo.transaction(async (tx) => {
        await deps.limits?.assertCanCreate(tx, user.teamId, 'audience-limit');
        const copy = await repo.insert(
          user.teamId,
          {
            parent_id: original.parent_id,
            name: name ?? `${original.name} (copy)`,
            ignore_new_leads: original.ignore_new_leads,
            conditions: original.conditions,
          },
          tx,
        );
        if (original.ignore_new_leads && original.frozen_at) {
          await repo.copyMembers(user.teamId, original.id, copy, original.frozen_at, tx);
        }
        return copy;
      });
      return get(user, copyId);
    },

    async update(user: AuthUser, id: number, patch: { name?: string; ignore_new_leads?: boolean }) {
      return save(user, await requireChain(user.teamId, id), patch);
    },

    async setConditions(user: AuthUser, id: number, conditions: TSegmentCondition[]) {
      return save(user, await requireChain(user.teamId, id), { conditions });
    },

    /** Replaces the source filter's values (keeping its operator); none removes it and the list filter. */
    async syncSources(user: AuthUser, id: number, sources: number[]) {
      const chain = await requireChain(user.teamId, id);
      const current = chain[chain.length - 1].conditions;
      const operator = current.find((c) => c.id === 'source')?.operator ?? 'eq';
      const rest = current.filter((c) => c.id !== 'source' && (sources.length > 0 || c.id !== 'list'));
      const next = sources.length > 0 ? [{ id: 'source', operator, values: sources.map(String) }, ...rest] : rest;
      return save(user, chain, { conditions: next });
    },

    async syncLists(user: AuthUser, id: number, lists: number[]) {
      const chain = await requireChain(user.teamId, id);
      const current = chain[chain.length - 1].conditions;
      const operator = current.find((c) => c.id === 'list')?.operator ?? 'eq';
      if (operator === 'first_appeared_in_list' && lists.length > 1) {
        throw AppError.field('lists', 'filter_one_value');
      }
      if (lists.length > 0 && !current.some((c) => c.id === 'source')) {
        throw AppError.field('lists', 'source_before_list');
      }
      const rest = current.filter((c) => c.id !== 'list');
      const next = lists.length > 0 ? [...rest, { id: 'list', operator, values: lists.map(String) }] : rest;
      return save(user, chain, { conditions: next });
    },

    /** Replaces every condition but source and list with these (values) and empties (presence). */
    async syncConditions(user: AuthUser, id: number, conditions: TSegmentCondition[], empties: TSegmentCondition[]) {
      if (empties.some((c) => c.operator !== 'empty' && c.operator !== 'not_empty')) {
        throw AppError.field('empties', 'empties_only');
      }
      if ([...conditions, ...empties].some((c) => c.id === 'source' || c.id === 'list')) {
        throw AppError.field('conditions', 'conditions_no_sources');
      }
      const chain = await requireChain(user.teamId, id);
      const kept = chain[chain.length - 1].conditions.filter((c) => c.id === 'source' || c.id === 'list');
      return save(user, chain, { conditions: [...kept, ...conditions, ...empties] });
    },

    /** The segments whose chain the lead matches now: dynamic ones by their conditions, frozen by members. */
    async ofLead(user: AuthUser, leadId: number) {
      const rows = await repo.all(user.teamId);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const chainOf = (row: SegmentRow): SegmentRow[] => {
        const parent = row.parent_id === null ? undefined : byId.get(row.parent_id);
        return parent ? [...chainOf(parent), row] : [row];
      };
      const ctx = await compileContext(user.teamId);
      const predicates = rows.map((r) => ({ id: r.id, where: compileChain(chainOf(r), ctx) }));
      const matched = await repo.matching(user.teamId, leadId, predicates);
      if (!matched) throw new AppError('not_found', message('lead_not_found'));
      return {
        data: rows
          .filter((r) => matched.has(r.id))
          .map((r) => ({ id: r.id, name: r.name, parent_segment_id: r.parent_id })),
      };
    },

    async aggregations(user: AuthUser, id: number) {
      const chain = await requireChain(user.teamId, id);
      const row = await repo.findById(user.teamId, id);
      const counts = await countsOf(user, chain);
      return {
        leads_count: counts.total,
        duplicates_count: counts.duplicates,
        segments_count: Number(row?.segments_count ?? 0),
      };
    },

    async leadsCount(user: AuthUser, id: number) {
      return { leads_count: (await countsOf(user, await requireChain(user.teamId, id))).total };
    },

    /** The segment's leads in the shape of every lead table (GET /api/leads). */
    async leadsPage(user: AuthUser, id: number, query: TPageQuery) {
      const chain = await requireChain(user.teamId, id);
      const args = pageArgs(query, LEAD_ORDER_FIELDS, { field: 'id', dir: 'desc' });
      const search = args.search;
      const { where } = await predicate(user.teamId, chain);
      const [rows, counts] = await Promise.all([
        deps.leads.findPage(user.teamId, { where, ...args }),
        countsOf(user, chain, search),
      ]);
      const values = await deps.valuesOf(
        user.teamId,
        rows.map((r) => Number(r.id)),
      );
      return {
        data: rows.map((r) => ({
          ...r,
          id: Number(r.id),
          created_at: r.created_at.toISOString(),
          updated_at: r.updated_at.toISOString(),
          lead_values: values.filter((v) => v.lead_id === Number(r.id)).map(({ lead_id: _, ...v }) => v),
        })),
        meta: { ...pageMeta(query.page, query.limit, counts.total), total_blacklisted: counts.blacklisted },
      };
    },

    /** Deletes the team's segments among `ids` (their children with them); another team's are not found. */
    async delete(user: AuthUser, ids: number[], requireAll = false) {
      const deleted = await repo.delete(user.teamId, ids);
      if (requireAll && deleted < ids.length) throw new AppError('not_found', message('segment_not_found'));
      return deleted;
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
