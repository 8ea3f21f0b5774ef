import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createTeamRepository } from './team.repository.ts';
import { teamRoutes } from './team.routes.ts';
import { createTeamService, type ProfileBalance } from './team.service.ts';

export interface TeamModuleDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  /** The web app's address, for the links in invitations. */
  appUrl: string;
}

/** Wires the profile, the team's members and invitations: repository → service → routes. */
export function createTeamModule({ db, mailer, appUrl }: TeamModuleDeps) {
  let balanceOf: ProfileBalance | undefined;
  const service = createTeamService({ repo: createTeamRepository(db), mailer, appUrl, balanceOf: () => balanceOf });
  return {
    service,
    /** Billing, built later, gives `/api/user` the balance with its currency and free SMS. */
    provideBalance: (fn: ProfileBalance) => {
      balanceOf = fn;
    },
    routes: (app: FastifyInstance) => teamRoutes(app, { team: service }),
  };
}
