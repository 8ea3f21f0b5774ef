import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../db/schema.ts';
import { createShortLinkClicks } from './short-link-clicks.service.ts';
import { shortLinkRedirectRoutes } from './short-links.redirect.ts';
import { createShortLinksRepository } from './short-links.repository.ts';
import { createShortLinksMaker } from './short-links.service.ts';
import { shortUrlDomainsRoutes } from './short-url-domains.routes.ts';
import { createShortUrlDomainsService } from './short-url-domains.service.ts';

export interface ShortLinksModuleDeps {
  db: Kysely<DB>;
  /** The app's own origin (APP_URL): its host serves every team's links, and is the host when a team has no domain. */
  appUrl: string;
  limits: { assertCanCreate: (tx: Kysely<DB>, teamId: number, slug: TFeatureSlug) => Promise<void> };
}

/**
 * Short links (decision 021): `make(tx, …)` for the sending side, the short-URL domains under
 * `/api` (`routes`), and the redirect `GET /{code}` at the root (`pageRoutes`), on the app's
 * own origin and the teams' domains.
 */
export function createShortLinksModule(deps: ShortLinksModuleDeps) {
  const repo = createShortLinksRepository(deps.db);
  const appHost = new URL(deps.appUrl).host.toLowerCase();
  const maker = createShortLinksMaker(repo, appHost);
  const clicks = createShortLinkClicks(deps.db, repo);
  const domains = createShortUrlDomainsService(repo, {
    db: deps.db,
    assertCanCreate: deps.limits.assertCanCreate,
    appHost,
  });
  return {
    make: maker.make,
    makeMany: maker.makeMany,
    appHost,
    routes: (app: FastifyInstance) => shortUrlDomainsRoutes(app, { domains }),
    pageRoutes: (app: FastifyInstance) => shortLinkRedirectRoutes(app, { repo, clicks, appHost }),
    /** Writes the hits still waiting when the app closes. */
    stop: () => clicks.drain(),
  };
}
export type ShortLinksModule = ReturnType<typeof createShortLinksModule>;
