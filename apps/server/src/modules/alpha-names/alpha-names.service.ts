import type { TAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import { message } from '@herald/shared/common/messages';
import type { PlanLimits } from '../../db/plan-limits.ts';
import { AppError } from '../../http/app-error.ts';
import type { AlphaNameRow, AlphaNamesRepository } from './alpha-names.repository.ts';

export const AUTO_APPROVE_JOB = 'alpha-names.auto-approve';
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
}

/** Sender names: asked for by a team, reviewed by the installation's admins, one default per team. */
export function createAlphaNamesService(repo: AlphaNamesRepository, deps: AlphaNamesServiceDeps) {
  return {
    async list(teamId: number) {
      return { data: (await repo.list(teamId)).map(toAlphaName) };
    },

    async store(teamId: number, name: string): Promise<{ status: 'ok' | 'limit'; data?: TAlphaName }> {
      const { limits } = deps;
      let row: AlphaNameRow | undefined;
      try {
        row = await repo.insert(
          teamId,
          name,
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
      return toAlphaName(row);
    },

    /** The delayed job: approves the name if nobody has decided it meanwhile. */
    async autoApprove(id: number): Promise<void> {
      await repo.review(id, 1, AUTO_REVIEWER);
    },
  };
}

export type AlphaNamesService = ReturnType<typeof createAlphaNamesService>;
