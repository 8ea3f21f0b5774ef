import type { PlanLimits } from '../../db/plan-limits.ts';
import type { FastifyInstance } from 'fastify';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { PhoneRule } from '@herald/shared/leads/phone';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createVersionedCache } from '../../db/versioned-cache.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { createLeadCampaignsRepository } from './lead-campaigns.repository.ts';
import { createLeadLogRepository } from './lead-log.repository.ts';
import { createLeadValuesService } from './lead-values.service.ts';
import { createLeadsRepository } from './leads.repository.ts';
import { leadsRoutes } from './leads.routes.ts';
import { createLeadsService, type LeadsDeps } from './leads.service.ts';

export interface LeadsModuleDeps {
  db: Kysely<DB>;
  bus: EventBus;
  /** The team's lead attributes (the attributes module). */
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  /** The team's phone rule: its default country and ignored formats (the settings module). */
  phoneRule: (teamId: number) => Promise<PhoneRule>;
  /** The sources module's checks and cached counts. */
  requireListOfSource: LeadsDeps['requireListOfSource'];
  requireList: LeadsDeps['requireList'];
  cachedTotals: LeadsDeps['cachedTotals'];
  /** The plan's lead limit (decision 015); none without it. */
  limits?: PlanLimits;
}

/** Wires leads: repositories → services (leads, their values) → routes. */
export function createLeadsModule(deps: LeadsModuleDeps) {
  const repo = createLeadsRepository(deps.db);
  const log = createLeadLogRepository(deps.db);
  const campaigns = createLeadCampaignsRepository(deps.db);
  const service = createLeadsService({
    repo,
    log,
    campaigns,
    bus: deps.bus,
    attributes: deps.attributes,
    phoneRule: deps.phoneRule,
    requireListOfSource: deps.requireListOfSource,
    requireList: deps.requireList,
    cachedTotals: deps.cachedTotals,
    limits: deps.limits,
    historySince: async (teamId) => (await deps.limits?.historySince(deps.db, teamId)) ?? null,
  });
  // The team's leads, from the per-list daily counts the leads triggers keep in each transaction.
  deps.limits?.provide('lead-limit', (on, teamId) => repo.countAll(on, teamId));
  const values = createLeadValuesService({
    repo,
    attributes: deps.attributes,
    phoneRule: deps.phoneRule,
  });
  const pages = createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 500 });
  return {
    service,
    /** The values of these leads as every lead table shows them (audiences' lead pages read them). */
    valuesOf: (teamId: number, leadIds: number[]) => repo.valuesOf(teamId, leadIds),
    routes: (app: FastifyInstance) => leadsRoutes(app, { leads: service, values, pages }),
  };
}
