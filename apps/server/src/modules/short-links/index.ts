import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { createShortLinksRepository } from './short-links.repository.ts';
import { createShortLinksMaker } from './short-links.service.ts';

export interface ShortLinksModuleDeps {
  db: Kysely<DB>;
  /** The app's own origin (APP_URL): its host serves every team's links, and is the host when a team has no domain. */
  appUrl: string;
}

/**
 * Short links (decision 021): `make(tx, …)` for the sending side, the short-URL domains under
 * `/api`, and the redirect `GET /{code}` on the app's own origin and the teams' domains.
 */
export function createShortLinksModule(deps: ShortLinksModuleDeps) {
  const repo = createShortLinksRepository(deps.db);
  const appHost = new URL(deps.appUrl).host;
  const maker = createShortLinksMaker(repo, appHost);
  return {
    make: maker.make,
    routes: async (_app: FastifyInstance) => {},
  };
}
