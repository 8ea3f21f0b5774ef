import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TActiveSubscription } from '@herald/shared/plans/plans.schemas';
import type { PlanLimits } from '../../db/plan-limits.ts';
import type { DB } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createTeamRepository } from './team.repository.ts';
import { teamRoutes } from './team.routes.ts';
import { createTeamService } from './team.service.ts';

export interface TeamModuleDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  /** The web app's address, for the links in invitations. */
  appUrl: string;
  /** The plan's team limits (decision 015); none without it. */
  limits?: PlanLimits;
  /** The team's subscriptions in force, for `GET /api/user`. */
  subscriptions?: (teamId: number) => Promise<TActiveSubscription[]>;
}

/** Wires the profile, the team's members and invitations: repository → service → routes. */
export function createTeamModule({ db, mailer, appUrl, limits, subscriptions }: TeamModuleDeps) {
  const repo = createTeamRepository(db);
  const service = createTeamService({ repo, mailer, appUrl, limits, subscriptions });
  limits?.provide('team-member-limit', (on, teamId) => repo.countSeats(on, teamId));
  return { service, routes: (app: FastifyInstance) => teamRoutes(app, { team: service }) };
}
