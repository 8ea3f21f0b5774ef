import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { PlanLimits } from '../../db/plan-limits.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { autoApproveDelay, autoApproveScheduler, decisionMailQueue, registerAutoApprove } from './alpha-names.jobs.ts';
import { createAlphaNamesRepository } from './alpha-names.repository.ts';
import { alphaNamesRoutes } from './alpha-names.routes.ts';
import { createAlphaNamesService } from './alpha-names.service.ts';

export interface AlphaNamesModuleDeps {
  db: Kysely<DB>;
  jobs: JobQueue;
  /** E-mails of the installation's admins, who review names of every team (lower case). */
  adminEmails: readonly string[];
  /** Seconds after which every team's name on review is approved by itself (simulator installations); off when absent. */
  autoApproveSeconds?: number;
  /** Seconds after which the name of a team that sends only through the simulator is approved by itself. */
  simulatorReviewSeconds: number;
  /** The gateways module's answer: every gateway the team can send through is the simulator. */
  sendsOnlyThroughSimulator?: (teamId: number) => Promise<boolean>;
  /** The plan's `alpha-name-limit` (decision 015); no limit without it. */
  limits?: PlanLimits;
  /** Tells the team about a decided name; no mail without it. */
  mailer?: Mailer;
}

/** Wires alpha names: repository → service → routes, and the delayed auto-approval job. */
export async function createAlphaNamesModule(deps: AlphaNamesModuleDeps) {
  const repo = createAlphaNamesRepository(deps.db);
  const review = {
    everySeconds: deps.autoApproveSeconds,
    simulatorSeconds: deps.simulatorReviewSeconds,
    sendsOnlyThroughSimulator: deps.sendsOnlyThroughSimulator,
  };
  const service = createAlphaNamesService(repo, {
    limits: deps.limits,
    scheduleAutoApprove: autoApproveScheduler(deps.jobs, review),
    autoApproveAfter: (teamId) => autoApproveDelay(review, teamId),
    queueDecisionMail: decisionMailQueue(deps.jobs),
    mailer: deps.mailer,
  });
  await registerAutoApprove(deps.jobs, service);
  deps.limits?.provide('alpha-name-limit', (db, teamId) => repo.countHeld(teamId, db));
  const admins = new Set(deps.adminEmails.map((e) => e.toLowerCase()));
  const isAdmin = (email: string) => admins.has(email.toLowerCase());
  return { service, routes: (app: FastifyInstance) => alphaNamesRoutes(app, { alphaNames: service, isAdmin }) };
}
