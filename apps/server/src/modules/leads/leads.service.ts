import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { pageMeta, type TPageQuery } from '@herald/shared/common/pagination.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import type { PhoneRule } from '@herald/shared/leads/phone';
import type { TCreateLeadRequest, TLead, TLeadStatus } from '@herald/shared/leads/leads.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import { bumpDataVersion } from '../../db/data-version.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { AppError } from '../../http/app-error.ts';
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
  runInTransaction: LeadsRepository['transaction'];
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
    if (!lead) throw new AppError('not_found', 'Lead not found.');
    return lead;
  }

  return {
    requireLead,

    async page(user: AuthUser, query: TPageQuery, listId?: number) {
      if (listId) await deps.requireList(user.teamId, listId);
      const order = query.order?.[0];
      const field =
        order && ORDER_FIELDS.includes(order.field as LeadOrderField) ? (order.field as LeadOrderField) : 'id';
      const search = query.search?.trim() || undefined;
      const args = {
        listId,
        search,
        order: { field, dir: order?.dir ?? 'desc' },
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
      };
      // Unfiltered totals come from the cached counts (fresh after the team's own changes).
      const [rows, totals] = await Promise.all([
        repo.findPage(user.teamId, args),
        search ? repo.count(user.teamId, args) : deps.cachedTotals(user.teamId, listId, user.dataVersion),
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
      const errors: Record<string, string[]> = {};
      const info: string[] = [];
      const values: Array<{ attribute_id: number; type: TLeadAttribute['type']; value: string; name: string }> = [];
      input.attributes.forEach((item, index) => {
        if (!item.value.trim()) return;
        const attribute = byId.get(item.attr_id);
        if (!attribute) {
          errors[`attributes.${index}.attr_id`] = ['Unknown attribute.'];
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
      if (Object.keys(errors).length > 0) throw new AppError('validation_failed', Object.values(errors)[0][0], errors);
      if (values.length === 0) {
        throw AppError.field('attributes', info[0] ?? 'Add at least one value.');
      }
      const lead = await deps.runInTransaction(async (tx) => {
        if (values.some((v) => v.type === 'phone')) await repo.holdDuplicates(teamId, tx);
        const lead = await repo.insertLead({ team_id: teamId, source_id: input.source_id, list_id: input.list_id }, tx);
        const attributeIds = values.map((v) => v.attribute_id);
        if (!(await repo.lockAttributes(teamId, attributeIds, tx))) {
          throw new AppError('not_found', 'Attribute not found.');
        }
        await repo.insertValues(
          teamId,
          lead.id,
          values.map(({ name: _, ...v }) => v),
          tx,
        );
        await log.add(
          teamId,
          user.id,
          [
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
          ],
          tx,
        );
        await repo.refreshDuplicates(
          teamId,
          values.filter((v) => v.type === 'phone').map((v) => v.value),
          [lead.id],
          tx,
        );
        await bumpDataVersion(tx, teamId);
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
      if (existing.length !== unique.length) throw new AppError('not_found', 'Lead not found.');
      return deps.runInTransaction(async (tx) => {
        await repo.holdDuplicates(teamId, tx);
        const phones = await repo.phonesOf(teamId, unique, tx);
        const deleted = await repo.deleteLeads(teamId, unique, tx);
        await repo.refreshDuplicates(teamId, phones, [], tx);
        await bumpDataVersion(tx, teamId);
        return deleted;
      });
    },

    async setStatus(user: AuthUser, ids: number[], status: TLeadStatus) {
      const teamId = user.teamId;
      const unique = [...new Set(ids)];
      const existing = new Set((await repo.findExistingIds(teamId, unique)).map((r) => r.id));
      const changed = await deps.runInTransaction(async (tx) => {
        const rows = await repo.setStatus(teamId, [...existing], status, tx);
        await log.add(
          teamId,
          user.id,
          rows.map((r) => ({
            lead_id: r.id,
            type: 'status',
            action: 'status_changed',
            diff_log: [
              {
                action: 'changed',
                lead_attribute_name: 'status',
                lead_attribute_value: status,
                value_from: r.old_status,
                value_to: status,
              },
            ],
          })),
          tx,
        );
        if (rows.length > 0) await bumpDataVersion(tx, teamId);
        return rows.length;
      });
      const info = changed > 0 ? [`${changed} lead(s) set to ${status}`] : [];
      const unchanged = existing.size - changed;
      if (unchanged > 0) info.push(`${unchanged} lead(s) already ${status}`);
      const missing = unique.length - existing.size;
      return { info, errors: missing > 0 ? [`${missing} lead(s) not found`] : [] };
    },

    async log(user: AuthUser, leadId: number, page: number, limit: number) {
      await requireLead(user.teamId, leadId);
      const { rows, total } = await log.page(user.teamId, leadId, (page - 1) * limit, limit);
      return { data: rows, meta: pageMeta(page, limit, total) };
    },

    async sources(user: AuthUser, leadId: number) {
      const row = await repo.sourceAndList(user.teamId, leadId);
      if (!row) throw new AppError('not_found', 'Lead not found.');
      return {
        sources: [{ id: row.source_id, name: row.source_name }],
        lists: [{ id: row.list_id, name: row.list_name, source_id: row.source_id }],
      };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
