import type { TAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import { message } from '@herald/shared/common/messages';
import type { PlanLimits } from '../../db/plan-limits.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { alphaNameDecisionMail } from './alpha-names.mail.ts';
import { AppError } from '../../http/app-error.ts';
import type { AlphaNameRow, AlphaNamesRepository } from './alpha-names.repository.ts';

export { AUTO_APPROVE_JOB, DECISION_MAIL_JOB } from '@herald/shared/jobs/alpha-names.jobs';
/** How long a review by the installation's admins usually takes (said on the alpha names page). */
export const ADMIN_REVIEW_SECONDS = 24 * 3600;
/** Who approved a name when no person did. */
export const AUTO_REVIEWER = 'auto-approve';

export function toAlphaName(row: AlphaNameRow): TAlphaName {
  return {
    id: Number(row.id),
    name: row.name,
    status: row.status,
    default: row.is_default,
    active: row.status === 1,
    created_at: row.created_at.toISOString(),
  };
}

export interface AlphaNamesServiceDeps {
  /** The plan's `alpha-name-limit` (decision 015); no limit without it. */
  limits?: PlanLimits;
  /** Asks for a name on review to be approved by itself later, where no carrier reviews it (alpha-names.jobs.ts). */
  scheduleAutoApprove?: (teamId: number, id: number) => Promise<void>;
  /** Seconds after which the team's new names are approved by themselves; undefined: admins review them. */
  autoApproveAfter?: (teamId: number) => Promise<number | undefined>;
  /** Queues the decision's mail (alpha-names.jobs.ts); no mail without it. */
  queueDecisionMail?: (id: number) => Promise<void>;
  mailer?: Mailer;
}

/** Sender names: asked for by a team, reviewed by the installation's admins, one default per team. */
export function createAlphaNamesService(repo: AlphaNamesRepository, deps: AlphaNamesServiceDeps) {
  return {
    /** The team's names, and who reviews a new one and how long that usually takes. */
    async list(teamId: number) {
      const seconds = await deps.autoApproveAfter?.(teamId);
      return {
        data: (await repo.list(teamId)).map(toAlphaName),
        review:
          seconds === undefined
            ? { by: 'admins' as const, seconds: ADMIN_REVIEW_SECONDS }
            : { by: 'automatic' as const, seconds },
      };
    },

    async store(
      teamId: number,
      name: string,
      language: 'uk' | 'en' | 'ru' = 'uk',
    ): Promise<{ status: 'ok' | 'limit'; data?: TAlphaName }> {
      const { limits } = deps;
      let row: AlphaNameRow | undefined;
      try {
        row = await repo.insert(
          teamId,
          name,
          language,
          limits && ((tx) => limits.assertCanCreate(tx, teamId, 'alpha-name-limit')),
        );
      } catch (error) {
        // The spec answers a full plan with `status: limit`, not an error; other refusals of the
        // plan (no subscription) stay errors.
        if (error instanceof AppError && error.code === 'plan_limit_reached') return { status: 'limit' };
        throw error;
      }
      if (!row) throw AppError.field('name', 'alpha_name_taken');
      await deps.scheduleAutoApprove?.(teamId, Number(row.id));
      return { status: 'ok', data: toAlphaName(row) };
    },

    async setDefault(teamId: number, id: number): Promise<TAlphaName> {
      const row = await repo.find(teamId, id);
      if (!row) throw new AppError('not_found', message('alpha_name_not_found'));
      if (row.status !== 1 || !(await repo.setDefault(teamId, id))) {
        throw AppError.field('id', 'alpha_name_not_active');
      }
      return toAlphaName({ ...row, is_default: true });
    },

    async reviewQueue() {
      const rows = await repo.listByStatus(2, 500);
      return { data: rows.map((r) => ({ ...toAlphaName(r), team_id: Number(r.team_id), team_name: r.team_name })) };
    },

    async review(id: number, decision: 'approve' | 'reject', reviewer: string): Promise<TAlphaName> {
      const row = await repo.review(id, decision === 'approve' ? 1 : 0, reviewer);
      if (!row && !(await repo.exists(id))) throw new AppError('not_found', message('alpha_name_not_found'));
      if (!row) throw new AppError('conflict', message('alpha_name_already_reviewed'));
      await deps.queueDecisionMail?.(id);
      return toAlphaName(row);
    },

    /** The delayed job: approves the name if nobody has decided it meanwhile. */
    async autoApprove(id: number): Promise<void> {
      if (await repo.review(id, 1, AUTO_REVIEWER)) await deps.queueDecisionMail?.(id);
    },

    /** The job after a decision: tells the team's owner and admins, in the language the name was asked in. */
    async mailDecision(id: number): Promise<void> {
      const decided = await repo.decision(id);
      if (!decided || decided.status === 2 || !deps.mailer) return;
      for (const to of decided.to)
        await deps.mailer.send(
          alphaNameDecisionMail(to, {
            name: decided.name,
            team: decided.team,
            approved: decided.status === 1,
            language: decided.language,
          }),
        );
    },
  };
}

export type AlphaNamesService = ReturnType<typeof createAlphaNamesService>;
