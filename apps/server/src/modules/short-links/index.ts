import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../db/schema.ts';
import { SHORT_URL_DOMAIN_LOST_MAIL_JOB } from '@herald/shared/jobs/short-links.jobs';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createDomainProbe, type DomainProbe } from './domain-proof.ts';
import { createShortLinkClicks } from './short-link-clicks.service.ts';
import { shortLinkRedirectRoutes } from './short-links.redirect.ts';
import { createShortLinksRepository } from './short-links.repository.ts';
import { createShortLinksMaker } from './short-links.service.ts';
import { registerDomainChecks, registerDomainLostMail } from './short-url-domains.jobs.ts';
import { shortUrlDomainsRoutes } from './short-url-domains.routes.ts';
import { createShortUrlDomainsService } from './short-url-domains.service.ts';

export type { DomainProbe } from './domain-proof.ts';

export interface ShortLinksModuleDeps {
  db: Kysely<DB>;
  jobs: Pick<JobQueue, 'register' | 'schedule' | 'send'>;
  mailer: Mailer;
  runWorkers: boolean;
  /** The app's own origin (APP_URL): its host serves every team's links, and is the host when a team has no domain. */
  appUrl: string;
  limits: { assertCanCreate: (tx: Kysely<DB>, teamId: number, slug: TFeatureSlug) => Promise<void> };
  /** How domains are asked for their proof; the network (through `domainCheckBaseUrl`, if set) when absent. */
  domainProbe?: DomainProbe;
  /** Where the HTTP proof is asked, with the domain as Host (a reverse proxy, or this app); the domain itself when absent. */
  domainCheckBaseUrl?: string;
  /** Failed re-checks in a row after which a verified domain is taken out of use (default 2). */
  domainLoseAfter?: number;
  log?: FastifyBaseLogger;
}

const quiet = { info: () => {}, warn: () => {} };

/**
 * Short links (decisions 021, 028): `make(tx, …)` for the sending side, the short-URL domains
 * under `/api` (`routes`), and at the root (`pageRoutes`) the redirect `GET /{code}` and the
 * domains' proof `GET /.well-known/herald/{token}`, on the app's own origin and the teams' domains.
 */
export async function createShortLinksModule(deps: ShortLinksModuleDeps) {
  const repo = createShortLinksRepository(deps.db);
  const origin = new URL(deps.appUrl);
  const appHost = origin.host.toLowerCase();
  const maker = createShortLinksMaker(repo, appHost);
  const clicks = createShortLinkClicks(deps.db, repo);
  const domains = createShortUrlDomainsService(repo, {
    db: deps.db,
    assertCanCreate: deps.limits.assertCanCreate,
    appHost,
    appHostname: origin.hostname.toLowerCase(),
    probe: deps.domainProbe ?? createDomainProbe({ baseUrl: deps.domainCheckBaseUrl }),
    loseAfter: deps.domainLoseAfter ?? 2,
    log: deps.log ?? quiet,
    onLost: async (domain) => void (await deps.jobs.send(SHORT_URL_DOMAIN_LOST_MAIL_JOB, domain)),
  });
  await registerDomainChecks(deps.jobs, domains, deps.runWorkers);
  await registerDomainLostMail(deps.jobs, {
    repo,
    mailer: deps.mailer,
    settingsUrl: `${deps.appUrl.replace(/\/$/, '')}/settings/short-url-domains`,
  });
  const pageRoutes = (app: FastifyInstance) => shortLinkRedirectRoutes(app, { repo, clicks, appHost });
  return {
    make: maker.make,
    makeMany: maker.makeMany,
    appHost,
    /** The scheduled check of every domain, as its job runs it. */
    checkDomains: domains.checkAll,
    routes: (app: FastifyInstance) => shortUrlDomainsRoutes(app, { domains }),
    pageRoutes,
    /** Writes the hits still waiting when the app closes. */
    stop: () => clicks.drain(),
  };
}
export type ShortLinksModule = Awaited<ReturnType<typeof createShortLinksModule>>;
