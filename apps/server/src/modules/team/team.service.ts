import { can, PERMISSIONS, type TPermission } from '@herald/shared/auth/permissions';
import type { TUpdateUserRequest } from '@herald/shared/auth/auth.schemas';
import { normalizePhone } from '@herald/shared/leads/phone';
import type { TActiveSubscription } from '@herald/shared/plans/plans.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { PlanLimits } from '../../db/plan-limits.ts';
import { AppError } from '../../http/app-error.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Language } from '../../http/request-language.ts';
import { invitationMail } from '../../mail/templates.ts';
import { randomToken, sha256 } from '../../crypto/secrets.ts';
import { type TeamRepository, toInvitation } from './team.repository.ts';

export type ProfileBalance = (
  teamId: number,
  userId: number,
) => Promise<{
  balance: number;
  balance_currency: string;
  free_sms: { remaining: number | null; total: number | null };
}>;

const INVITATION_TTL = 7 * 24 * 3600_000;

/** The signed-in user's profile, the team's members and its invitations. */
export function createTeamService({
  repo,
  mailer,
  appUrl,
  balanceOf,
  limits,
  subscriptions,
}: {
  repo: TeamRepository;
  mailer: Mailer;
  appUrl: string;
  /** The billing module's balance, currency and free SMS of a user, once it is built (`provideBalance`). */
  balanceOf?: () => ProfileBalance | undefined;
  /** The plan's team limits: `manage-team` and the team size (decision 015); none without it. */
  limits?: PlanLimits;
  /** The team's subscriptions in force, shown on the user (spec section 3). */
  subscriptions?: (teamId: number) => Promise<TActiveSubscription[]>;
}) {
  /** The invitation names its team, who invites (the user sending it) and the role offered. */
  async function mailInvitation(
    email: string,
    token: string,
    lang: Language,
    by: AuthUser,
    role: 'team_admin' | 'team_operator',
  ) {
    const team = (await repo.teamName(by.teamId)) ?? '';
    await mailer.send(invitationMail(email, `${appUrl}/invite/${token}`, lang, { team, inviter: by.name, role }));
  }

  return {
    async profile(user: AuthUser) {
      const row = await repo.findMember(user.teamId, user.id);
      if (!row) throw new AppError('not_found');
      const permissions = (Object.keys(PERMISSIONS) as TPermission[]).filter((p) => can(row.role, p));
      return {
        id: row.id,
        team_id: row.team_id,
        name: row.name,
        email: row.email,
        phone: row.phone,
        role: row.role,
        email_verified_at: row.email_verified_at?.toISOString() ?? null,
        balance: row.balance,
        balance_currency: 'UAH',
        ...(await balanceOf?.()?.(row.team_id, row.id)),
        permissions,
        subscriptions: (await subscriptions?.(user.teamId)) ?? [],
      };
    },

    /** Only one's own profile; another user's id is answered as not found. */
    async updateProfile(user: AuthUser, id: number, input: TUpdateUserRequest) {
      if (id !== user.id) throw new AppError('not_found');
      let phone = input.phone;
      if (phone) {
        // The one phone rule, in the team's country, as for leads.
        phone = normalizePhone(phone, await repo.defaultCountry(user.teamId));
        if (!phone) throw AppError.field('phone', 'phone_invalid');
      }
      await repo.updateMember(user.teamId, id, {
        name: input.name,
        ...(phone !== undefined ? { phone } : {}),
      });
      return this.profile(user);
    },

    async members(user: AuthUser) {
      const rows = await repo.findMembers(user.teamId);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        role: r.role,
        balance: r.balance,
        balance_auto_refill: r.balance_auto_refill,
        blocked: r.blocked,
      }));
    },

    async setBlocked(user: AuthUser, id: number, blocked: boolean) {
      const member = await repo.findMember(user.teamId, id);
      if (!member) throw new AppError('not_found');
      if (member.role === 'team_owner') throw AppError.field('blocked', 'owner_not_blockable');
      if (member.id === user.id) throw AppError.field('blocked', 'self_block');
      await repo.updateMember(user.teamId, id, { blocked });
      if (blocked) await repo.revokeSessions(id);
      return { id, blocked };
    },

    async invitations(user: AuthUser) {
      return (await repo.findInvitations(user.teamId)).map(toInvitation);
    },

    async invite(user: AuthUser, email: string, role: 'team_admin' | 'team_operator', lang: Language) {
      if (await repo.emailTaken(email)) throw AppError.field('email', 'email_taken');
      if (await repo.findPendingInvitationByEmail(user.teamId, email)) {
        throw AppError.field('email', 'email_invited');
      }
      const token = randomToken();
      const row = await repo.createInvitation(
        {
          team_id: user.teamId,
          email,
          role,
          token_hash: sha256(token),
          invited_by: user.id,
          expires_at: new Date(Date.now() + INVITATION_TTL),
        },
        async (tx) => {
          if (!limits) return;
          await limits.assertCanCreate(tx, user.teamId, 'manage-team');
          await limits.assertCanCreate(tx, user.teamId, 'team-member-limit');
        },
      );
      await mailInvitation(email, token, lang, user, role);
      return toInvitation(row);
    },

    async updateInvitation(user: AuthUser, id: number, role: 'team_admin' | 'team_operator') {
      const row = await repo.updateInvitation(user.teamId, id, { role });
      if (!row) throw new AppError('not_found');
      return toInvitation(row);
    },

    /** A new link (the old one stops working) and a fresh expiry. */
    async resendInvitation(user: AuthUser, id: number, lang: Language) {
      const token = randomToken();
      const row = await repo.updateInvitation(user.teamId, id, {
        token_hash: sha256(token),
        expires_at: new Date(Date.now() + INVITATION_TTL),
      });
      if (!row) throw new AppError('not_found');
      await mailInvitation(row.email, token, lang, user, row.role as 'team_admin' | 'team_operator');
      return toInvitation(row);
    },

    async deleteInvitation(user: AuthUser, id: number) {
      if (!(await repo.deleteInvitation(user.teamId, id))) throw new AppError('not_found');
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
