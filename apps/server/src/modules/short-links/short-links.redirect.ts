import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CODE_PATTERN,
  MAX_CODE_LENGTH,
  MIN_CODE_LENGTH,
  normaliseRedirectTarget,
} from '@herald/shared/short-links/short-link-code';
import { classifyHit } from './bot-filter.ts';
import { proofText, WELL_KNOWN_PREFIX } from './domain-proof.ts';
import type { ShortLinkClicks } from './short-link-clicks.service.ts';
import { errorPage, notFoundPage, pageLanguage, unsubscribedPage, unsubscribePage } from './short-link-pages.ts';
import type { ShortLinkRow, ShortLinksRepository } from './short-links.repository.ts';

interface RedirectDeps {
  repo: ShortLinksRepository;
  clicks: ShortLinkClicks;
  appHost: string;
}

/** Links found lately, by code: a link never changes where it goes, so repeat hits skip the lookup. */
const CACHE_SIZE = 20_000;
const CACHE_MS = 60_000;
/** Domains' teams, by host: a domain deleted or given up keeps serving its team's links at most this long. */
const DOMAIN_CACHE_MS = 30_000;

/**
 * `GET|HEAD|POST /{code}` at the root, on the app's own origin and on every team's domain (by the
 * Host header). Only a path of 7–15 base-62 characters reaches it; on the app's own host a path
 * that is no link (a screen such as `/settings`) goes on to the web app as before, so the web
 * app's routes are never shadowed. A link answers on the app's host, and on its own host while
 * that host is a domain of the link's team (a host another team added before domains were
 * proven serves none of its links there). Any error answers the links' own error page, never a bare 500.
 * `GET /.well-known/herald/{token}` answers a domain's proof, by Host (decision 028).
 */
export async function shortLinkRedirectRoutes(app: FastifyInstance, deps: RedirectDeps) {
  const { repo, clicks, appHost } = deps;
  const cache = new Map<string, { link: ShortLinkRow; until: number }>();
  async function find(code: string): Promise<ShortLinkRow | undefined> {
    const now = Date.now();
    const hit = cache.get(code);
    if (hit && hit.until > now) return hit.link;
    const link = await repo.findByCode(code);
    if (link) {
      // Oldest first out: a Map keeps insertion order.
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(code, { link, until: now + CACHE_MS });
    }
    return link;
  }
  const domains = new Map<string, { teamId: number | undefined; until: number }>();
  async function domainTeam(host: string): Promise<number | undefined> {
    const now = Date.now();
    const hit = domains.get(host);
    if (hit && hit.until > now) return hit.teamId;
    const teamId = await repo.domainTeam(host);
    // Only a held host is kept: a host added a moment later serves at once.
    if (teamId !== undefined) {
      if (domains.size >= CACHE_SIZE) domains.delete(domains.keys().next().value as string);
      domains.set(host, { teamId, until: now + DOMAIN_CACHE_MS });
    }
    return teamId;
  }
  const path = `/:code(^[0-9A-Za-z]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$)`;

  app.setErrorHandler((error, req, reply) => {
    req.log.error({ err: error }, 'short link route failed');
    return reply
      .code(500)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(errorPage(pageLanguage(req.headers['accept-language'])));
  });

  // The unsubscribe page's form posts urlencoded; nothing of its body is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
    done(null, {}),
  );

  async function linkOf(req: FastifyRequest<{ Params: { code: string } }>): Promise<ShortLinkRow | undefined> {
    const { code } = req.params;
    if (!CODE_PATTERN.test(code)) return undefined;
    const link = await find(code);
    const host = req.host.toLowerCase();
    if (!link) return undefined;
    if (host === appHost) return link;
    if (host !== link.host || (await domainTeam(host)) !== Number(link.team_id)) return undefined;
    return link;
  }

  const logError = (req: FastifyRequest) => (error: unknown) =>
    req.log.error({ err: error }, 'short link hits not recorded');

  function notFound(req: FastifyRequest, reply: FastifyReply) {
    // The app's own host: a screen's path, handed to the web app (or its JSON 404 without it).
    if (req.host.toLowerCase() === appHost) return reply.callNotFound();
    return reply
      .code(404)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(notFoundPage(pageLanguage(req.headers['accept-language'])));
  }

  function html(reply: FastifyReply, body: string) {
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(body);
  }

  app.get<{ Params: { code: string } }>(path, { schema: { hide: true } }, async (req, reply) => {
    const link = await linkOf(req);
    if (!link) return notFound(req, reply);
    const reason = classifyHit({
      method: req.method,
      userAgent: req.headers['user-agent'],
      ageMs: Date.now() - link.created_at.getTime(),
    });
    if (link.kind === 'unsubscribe') {
      clicks.hit(link, false, logError(req));
      return html(reply, unsubscribePage(pageLanguage(req.headers['accept-language'])));
    }
    // Links are stored normalised; one stored raw before that (a Cyrillic path) is normalised here,
    // since a header carries ASCII only. One that cannot be is an error, and no click.
    const location = normaliseRedirectTarget(link.redirect_to ?? '');
    if (location === null) throw new Error(`short link ${link.id} has no valid target`);
    // Counted only now the answer is a redirect; written with the others of the moment, while the
    // person is on the way.
    clicks.hit(link, reason === 'human', logError(req));
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(location, 302);
  });

  // A domain's proof: the text the check expects, when the domain pointed here (the Host) has that
  // token. Nothing else is told: any other host or token gets a bare 404.
  app.get<{ Params: { token: string } }>(
    `${WELL_KNOWN_PREFIX}:token(^[0-9a-f]{32}$)`,
    { schema: { hide: true } },
    async (req, reply) => {
      const host = req.hostname.toLowerCase().replace(/\.$/, '');
      const found = await repo.domains.findByHostToken(host, req.params.token);
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      if (!found) return reply.code(404).send('Not found');
      return reply.send(proofText(req.params.token));
    },
  );

  app.post<{ Params: { code: string } }>(path, { schema: { hide: true } }, async (req, reply) => {
    const link = await linkOf(req);
    if (link?.kind !== 'unsubscribe') return notFound(req, reply);
    await clicks.unsubscribe(link);
    return html(reply, unsubscribedPage(pageLanguage(req.headers['accept-language'])));
  });
}
