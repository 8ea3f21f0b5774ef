import {
  CAMPAIGN_STEP_FIELDS,
  canAddStep,
  canDeleteStep,
  canEditAudience,
  canEditStep,
  type TCampaignStatus,
  type TCampaignStepField,
} from '@herald/shared/campaigns/campaign-moves';
import {
  MAX_STEPS,
  type TAddCampaignAudiencesRequest,
  type TCampaignAudience,
  type TCampaignLogAttribute,
  type TCampaignStep,
  type ZCreateCampaignStepRequest,
  type ZUpdateCampaignStepRequest,
} from '@herald/shared/campaigns/campaigns.schemas';
import { done, message, type TMessageCode } from '@herald/shared/common/messages';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { CampaignAudiencesRepository } from './campaign-audiences.repository.ts';
import type { CampaignChecks } from './campaign-checks.ts';
import { appendCampaignLog, appendCampaignLogs } from './campaign-logs.repository.ts';
import { lookupStepGateway } from './campaign-lookup-gateway.ts';
import type { CampaignStepRow, CampaignStepsRepository, CampaignStepValues } from './campaign-steps.repository.ts';
import { toStep } from './campaign-view.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';

type CreateStep = z.infer<typeof ZCreateCampaignStepRequest>;
type UpdateStep = z.infer<typeof ZUpdateCampaignStepRequest>;

const stepNotFound = () => new AppError('not_found', message('campaign_step_not_found'));
const facts = (c: { status: TCampaignStatus; started_at: Date | null }) => ({
  status: c.status,
  started: c.started_at !== null,
});
const AUDIENCE_NOT_FOUND: Record<TAddCampaignAudiencesRequest['kind'], TMessageCode> = {
  segment: 'segment_not_found',
  source: 'source_not_found',
  list: 'list_not_found',
};

/** A campaign's steps and audiences, edited under the rules of `campaign-moves` (decision 031). */
export function createCampaignStepsService(deps: {
  db: Kysely<DB>;
  repo: CampaignsRepository;
  steps: CampaignStepsRepository;
  audiences: CampaignAudiencesRepository;
  checks: CampaignChecks;
}) {
  const { db, repo, steps, audiences, checks } = deps;

  /** The campaign locked, or 404; refused with the rule's message when `rule` says no. */
  async function lockCampaign(
    tx: Kysely<DB>,
    user: AuthUser,
    id: number,
    rule?: (f: ReturnType<typeof facts>) => { ok: true } | { ok: false; code: TMessageCode },
  ) {
    const row = await repo.lock(tx, user.teamId, id);
    if (!row) throw notFound();
    const answer = rule?.(facts(row));
    if (answer && !answer.ok) throw new AppError('validation_failed', message(answer.code));
    return row;
  }

  const log = (
    tx: Kysely<DB>,
    user: AuthUser,
    campaignId: number,
    type: 'campaign_step_created' | 'campaign_step_updated' | 'campaign_step_deleted',
    step: CampaignStepRow,
    attributes?: TCampaignLogAttribute[],
  ) =>
    appendCampaignLog(tx, {
      campaignId,
      teamId: user.teamId,
      userId: user.id,
      type,
      data: { step_id: step.id, position: step.position, ...(attributes ? { attributes } : {}) },
    });

  return {
    async list(user: AuthUser, campaignId: number): Promise<TCampaignStep[]> {
      if (!(await repo.find(user.teamId, campaignId))) throw notFound();
      const rows = await steps.ofCampaign(user.teamId, campaignId);
      const lookups = await steps.lookups(
        user.teamId,
        rows.filter((r) => r.type === 'lookup').map((r) => r.id),
      );
      return rows.map((r) => ({ ...toStep(r), ...(r.type === 'lookup' ? { lookup: lookups.get(r.id) ?? null } : {}) }));
    },

    async create(user: AuthUser, campaignId: number, body: CreateStep): Promise<TCampaignStep> {
      // A lookup step sends nothing: no message, link, cap or deadline; only its gateway and delay.
      const lookup = body.type === 'lookup';
      const values: CampaignStepValues = {
        type: body.type,
        message: lookup ? '' : body.message,
        redirect_to: lookup ? null : (body.redirect_to ?? null),
        short_url_domain_id: lookup ? null : (body.short_url_domain_id ?? null),
        delay_minutes: body.delay_minutes,
        limit_cap: lookup ? null : (body.limit_cap ?? null),
        send_by_minutes: lookup ? null : (body.send_by_minutes ?? null),
        gateway_id: null,
      };
      const step = await db.transaction().execute(async (tx) => {
        await lockCampaign(tx, user, campaignId, canAddStep);
        const existing = await steps.ofCampaign(user.teamId, campaignId, tx);
        if (existing.length >= MAX_STEPS) throw AppError.field('message', 'campaign_steps_limit', { max: MAX_STEPS });
        // The first step goes at the start: it has no delay (the form hides the field).
        if (existing.length === 0) values.delay_minutes = 0;
        if (lookup) values.gateway_id = await lookupStepGateway(tx, user.teamId, body.gateway_id ?? null);
        else await checks.step(user.teamId, values as Required<typeof values>, tx);
        const row = await steps.append(tx, user.teamId, campaignId, values);
        await log(tx, user, campaignId, 'campaign_step_created', row);
        return row;
      });
      return toStep(step);
    },

    async update(user: AuthUser, stepId: number, body: UpdateStep): Promise<TCampaignStep> {
      const step = await db.transaction().execute(async (tx) => {
        const current = await steps.find(user.teamId, stepId, tx);
        if (!current) throw stepNotFound();
        const campaign = await lockCampaign(tx, user, current.campaign_id);
        const next: CampaignStepValues = {};
        for (const f of CAMPAIGN_STEP_FIELDS) {
          const v = body[f];
          if (v !== undefined && (v ?? null) !== current[f]) (next as Record<string, unknown>)[f] = v ?? null;
        }
        if (current.position === 1) delete next.delay_minutes;
        // A step keeps its type: a lookup step changes only its gateway and delay, an SMS step never has a gateway.
        const own = current.type === 'lookup' ? ['gateway_id', 'delay_minutes'] : null;
        for (const f of Object.keys(next) as TCampaignStepField[])
          if (own ? !own.includes(f) : f === 'gateway_id') delete next[f];
        const fields = Object.keys(next) as TCampaignStepField[];
        if (fields.length === 0) return current;
        const rule = canEditStep(facts(campaign), current, fields);
        if (!rule.ok) throw new AppError('validation_failed', message(rule.code));
        if (current.type === 'lookup') {
          if (next.gateway_id !== undefined)
            next.gateway_id = await lookupStepGateway(tx, user.teamId, next.gateway_id ?? null);
        } else await checks.step(user.teamId, { ...current, ...next }, tx);
        const row = await steps.update(tx, user.teamId, stepId, next);
        await log(
          tx,
          user,
          current.campaign_id,
          'campaign_step_updated',
          row,
          fields.map((name) => ({ name, value_from: current[name], value_to: row[name] })),
        );
        return row;
      });
      return toStep(step);
    },

    async delete(user: AuthUser, stepId: number) {
      await db.transaction().execute(async (tx) => {
        const current = await steps.find(user.teamId, stepId, tx);
        if (!current) throw stepNotFound();
        await lockCampaign(tx, user, current.campaign_id, canDeleteStep);
        await steps.delete(tx, user.teamId, current);
        // The step that became first goes at the start.
        await tx
          .updateTable('campaign_steps')
          .set({ delay_minutes: 0 })
          .where('campaign_id', '=', current.campaign_id)
          .where('position', '=', 1)
          .execute();
        await log(tx, user, current.campaign_id, 'campaign_step_deleted', current);
      });
      return done('campaign_step_deleted');
    },

    async audiences(user: AuthUser, campaignId: number): Promise<TCampaignAudience[]> {
      if (!(await repo.find(user.teamId, campaignId))) throw notFound();
      return (await audiences.list(user.teamId, campaignId)).map((a) => ({ ...a, leads_count: null }));
    },

    async addAudiences(user: AuthUser, campaignId: number, body: TAddCampaignAudiencesRequest) {
      const ids = [...new Set(body.ref_ids)];
      await db.transaction().execute(async (tx) => {
        await lockCampaign(tx, user, campaignId, canEditAudience);
        const found = await audiences.existing(user.teamId, body.kind, ids, tx);
        if (found.size !== ids.length) throw new AppError('not_found', message(AUDIENCE_NOT_FOUND[body.kind]));
        const added = await audiences.add(tx, user.teamId, campaignId, body.kind, ids);
        await appendCampaignLogs(
          tx,
          added.map((refId) => ({
            campaignId,
            teamId: user.teamId,
            userId: user.id,
            type: 'campaign_segment_add' as const,
            data: {
              kind: body.kind,
              ref_id: refId,
              name: found.get(refId),
              attributes: [{ name: body.kind, value_to: found.get(refId) ?? null }],
            },
          })),
        );
      });
      return this.audiences(user, campaignId);
    },

    async removeAudience(user: AuthUser, campaignId: number, audienceId: number) {
      await db.transaction().execute(async (tx) => {
        await lockCampaign(tx, user, campaignId, canEditAudience);
        const removed = await audiences.remove(tx, user.teamId, campaignId, audienceId);
        if (!removed) throw new AppError('not_found', message('campaign_audience_not_found'));
        const name = (await audiences.existing(user.teamId, removed.kind, [removed.ref_id], tx)).get(removed.ref_id);
        await appendCampaignLog(tx, {
          campaignId,
          teamId: user.teamId,
          userId: user.id,
          type: 'campaign_segment_deleted',
          data: {
            kind: removed.kind,
            ref_id: removed.ref_id,
            name,
            attributes: [{ name: removed.kind, value_to: name ?? null }],
          },
        });
      });
      return done('campaign_audience_removed');
    },
  };
}

export type CampaignStepsService = ReturnType<typeof createCampaignStepsService>;
