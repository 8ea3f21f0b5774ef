import type { Kysely } from 'kysely';
import type { PlanLimits } from '../../db/plan-limits.ts';
import type { DB } from '../../db/schema.ts';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import type { PhoneRule } from '@herald/shared/leads/phone';
import {
  DUPLICATES_SHOWN,
  LEAD_CAMPAIGNS_SHOWN,
  type TCreateLeadRequest,
  type TLead,
  type TLeadCampaigns,
  type TLeadDuplicates,
  type TLeadPageQuery,
  type TLeadStatus,
} from '@herald/shared/leads/leads.schemas';
import { message, type TMessage } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import type { LeadCampaignsRepository } from './lead-campaigns.repository.ts';
import type { LeadLogRepository } from './lead-log.repository.ts';
import type { LeadOrderField, LeadsRepository } from './leads.repository.ts';

export interface LeadsDeps {
  repo: LeadsRepository;
  log: LeadLogRepository;
  bus: EventBus;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  /** The team's phone rule (default country, ignored formats): every phone typed goes through it. */
  phoneRule: (teamId: number) => Promise<PhoneRule>;
  requireListOfSource: (teamId: number, sourceId: number, listId: number) => Promise<unknown>;
  requireList: (teamId: number, listId: number) => Promise<unknown>;
  cachedTotals: (
    teamId: number,
    listId?: number,
    knownVersion?: number,
  ) => Promise<{ total: number; blacklisted: number }>;
  /** The plan's lead limit (decision 015); none without it. */
  limits?: PlanLimits;
  /** The start of the plan's history window; the Timeline shows nothing older (null: all). */
  historySince?: (teamId: number) => Promise<Date | null>;
  /** The campaigns that took a lead as a recipient (read only). */
  campaigns: LeadCampaignsRepository;
}

const ORDER_FIELDS: LeadOrderField[] = ['id', 'created_at', 'updated_at', 'duplicates', 'status'];

/** The rules of leads: creation with typed values, status, deletion, duplicates, Timeline. */
export function createLeadsService(deps: LeadsDeps) {
  const { repo, log } = deps;

  async function withValues(
    teamId: number,
    rows: Array<Omit<TLead, 'lead_values' | 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date }>,
  ) {
    const values = await repo.valuesOf(
      teamId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      ...r,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      lead_values: values.filter((v) => v.lead_id === r.id).map(({ lead_id: _, ...v }) => v),
    }));
  }

  async function requireLead(teamId: number, id: number) {
    const lead = await repo.findById(teamId, id);
    if (!lead) throw new AppError('not_found', message('lead_not_found'));
    return lead;
  }

  return {
    requireLead,

    async page(user: AuthUser, query: TLeadPageQuery, listId?: number) {
      if (listId) await deps.requireList(user.teamId, listId);
      const duplicatesOnly = query.duplicates === '1';
      const args = { listId, duplicatesOnly, ...pageArgs(query, ORDER_FIELDS, { field: 'id', dir: 'desc' }) };
      const search = args.search;
      // Unfiltered totals come from the cached counts (fresh after the team's own changes).
      const [rows, totals] = await Promise.all([
        repo.findPage(user.teamId, args),
        search || duplicatesOnly
          ? repo.count(user.teamId, args)
          : deps.cachedTotals(user.teamId, listId, user.dataVersion),
      ]);
      return {
        data: rows.map((r) => ({
          ...r,
          created_at: r.created_at.toISOString(),
          updated_at: r.updated_at.toISOString(),
        })),
        meta: { ...pageMeta(query.page, query.limit, totals.total), total_blacklisted: totals.blacklisted },
      };
    },

    async get(user: AuthUser, id: number) {
      return (await withValues(user.teamId, [await requireLead(user.teamId, id)]))[0];
    },

    async create(user: AuthUser, input: TCreateLeadRequest) {
      const teamId = user.teamId;
      await deps.requireListOfSource(teamId, input.source_id, input.list_id);
      const [attributes, rule] = await Promise.all([deps.attributes(teamId), deps.phoneRule(teamId)]);
      const byId = new Map(attributes.map((a) => [a.id, a]));
      const errors: Record<string, TMessage[]> = {};
      const info: TMessage[] = [];
      const values: Array<{ attribute_id: number; type: TLeadAttribute['type']; value: string; name: string }> = [];
      input.attributes.forEach((item, index) => {
        if (!item.value.trim()) return;
        const attribute = byId.get(item.attr_id);
        if (!attribute) {
          errors[`attributes.${index}.attr_id`] = [message('unknown_attribute')];
          return;
        }
        const check = normalizeLeadValue(attribute.type, item.value, rule);
        if (check.ok) {
          if (!values.some((v) => v.attribute_id === attribute.id && v.value === check.value)) {
            values.push({ attribute_id: attribute.id, type: attribute.type, value: check.value, name: attribute.name });
          }
        } else if (check.reason === 'ignored') info.push(check.message);
        else errors[`attributes.${index}.value`] = [check.message];
      });
      if (Object.keys(errors).length > 0) throw AppError.fields(errors);
      if (values.length === 0) {
        throw AppError.fields({ attributes: [info[0] ?? message('values_required')] });
      }
      const stored = values.map(({ name: _, ...v }) => v);
      const phones = values.some((v) => v.type === 'phone');
      // The plan's lead limit, as the write's own lock: taken first, before the team's duplicate lock.
      const limits = deps.limits;
      const first = limits ? (tx: Kysely<DB>) => limits.assertCanCreate(tx, teamId, 'lead-limit') : undefined;
      const lead = await repo.write(teamId, { phones, first }, async (w) => {
        const lead = await w.insertLead({ source_id: input.source_id, list_id: input.list_id });
        if (!(await w.addValues(lead.id, stored))) {
          throw new AppError('not_found', message('attribute_not_found'));
        }
        await w.appendTimeline(user.id, [
          {
            lead_id: lead.id,
            type: 'lead',
            action: 'created',
            diff_log: values.map((v) => ({
              action: 'added',
              lead_attribute_name: v.name,
              lead_attribute_value: v.value,
              value_from: null,
              value_to: v.value,
            })),
          },
        ]);
        return lead;
      });
      if (user.role === 'team_operator') {
        await deps.bus.publish(
          { teamId },
          { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: user.id } },
        );
      }
      return { ...(await this.get(user, lead.id)), info };
    },

    async delete(user: AuthUser, ids: number[]) {
      const teamId = user.teamId;
      const unique = [...new Set(ids)];
      const existing = await repo.findExistingIds(teamId, unique);
      if (existing.length !== unique.length) throw new AppError('not_found', message('lead_not_found'));
      return repo.write(teamId, { phones: true }, (w) => w.deleteLeads(unique));
    },

    async setStatus(user: AuthUser, ids: number[], status: TLeadStatus) {
      const teamId = user.teamId;
      const unique = [...new Set(ids)];
      const existing = new Set((await repo.findExistingIds(teamId, unique)).map((r) => r.id));
      const changed = await repo.write(teamId, { phones: false }, async (w) => {
        const rows = await w.setStatus([...existing], status, user.id);
        if (rows.length === 0) w.unchanged();
        return rows.length;
      });
      const info = changed > 0 ? [message('leads_status_set', { count: changed, status })] : [];
      const unchanged = existing.size - changed;
      if (unchanged > 0) info.push(message('leads_status_already', { count: unchanged, status }));
      const missing = unique.length - existing.size;
      return { info, errors: missing > 0 ? [message('leads_not_found', { count: missing })] : [] };
    },

    async log(user: AuthUser, leadId: number, page: number, limit: number) {
      await requireLead(user.teamId, leadId);
      const since = (await deps.historySince?.(user.teamId)) ?? null;
      const { rows, total } = await log.page(user.teamId, leadId, (page - 1) * limit, limit, since);
      return { data: rows, meta: pageMeta(page, limit, total) };
    },

    /** The lead's campaigns, as chips on its page. */
    async campaigns(user: AuthUser, leadId: number): Promise<TLeadCampaigns> {
      await requireLead(user.teamId, leadId);
      return { data: await deps.campaigns.findByLead(user.teamId, leadId, LEAD_CAMPAIGNS_SHOWN) };
    },

    async duplicates(user: AuthUser, leadId: number): Promise<TLeadDuplicates> {
      await requireLead(user.teamId, leadId);
      const rows = await repo.duplicatesOf(user.teamId, leadId, DUPLICATES_SHOWN + 1);
      return {
        data: rows.slice(0, DUPLICATES_SHOWN).map((r) => ({
          id: Number(r.id),
          status: r.status,
          phones: r.phones,
          source: { id: Number(r.source_id), name: r.source_name },
          list: { id: Number(r.list_id), name: r.list_name },
        })),
        more: rows.length > DUPLICATES_SHOWN,
      };
    },

    async sources(user: AuthUser, leadId: number) {
      const row = await repo.sourceAndList(user.teamId, leadId);
      if (!row) throw new AppError('not_found', message('lead_not_found'));
      return {
        sources: [{ id: row.source_id, name: row.source_name }],
        lists: [{ id: row.list_id, name: row.list_name, source_id: row.source_id }],
      };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
