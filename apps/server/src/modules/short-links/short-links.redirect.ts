import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CODE_PATTERN, MAX_CODE_LENGTH, MIN_CODE_LENGTH } from '@herald/shared/short-links/short-link-code';
import { classifyHit } from './bot-filter.ts';
import type { ShortLinkClicks } from './short-link-clicks.service.ts';
import { notFoundPage, pageLanguage, unsubscribedPage, unsubscribePage } from './short-link-pages.ts';
import type { ShortLinkRow, ShortLinksRepository } from './short-links.repository.ts';

interface RedirectDeps {
  repo: ShortLinksRepository;
  clicks: ShortLinkClicks;
  appHost: string;
}

/** Links found lately, by code: a link never changes where it goes, so repeat hits skip the lookup. */
const CACHE_SIZE = 20_000;
const CACHE_MS = 60_000;

/**
 * `GET|HEAD|POST /{code}` at the root, on the app's own origin and on every team's domain (by the
 * Host header). Only a path of 7–15 base-62 characters reaches it; on the app's own host a path
 * that is no link (a screen such as `/settings`) goes on to the web app as before, so the web
 * app's routes are never shadowed. A link answers only on its own host and the app's.
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
  const path = `/:code(^[0-9A-Za-z]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$)`;

  // The unsubscribe page's form posts urlencoded; nothing of its body is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
    done(null, {}),
  );

  async function linkOf(req: FastifyRequest<{ Params: { code: string } }>): Promise<ShortLinkRow | undefined> {
    const { code } = req.params;
    if (!CODE_PATTERN.test(code)) return undefined;
    const link = await find(code);
    const host = req.host.toLowerCase();
    if (!link || (host !== appHost && host !== link.host)) return undefined;
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
    // The hit is written with the others of the moment: the person is on the way meanwhile.
    clicks.hit(link, reason === 'human', logError(req));
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(link.redirect_to as string, 302);
  });

  app.post<{ Params: { code: string } }>(path, { schema: { hide: true } }, async (req, reply) => {
    const link = await linkOf(req);
    if (link?.kind !== 'unsubscribe') return notFound(req, reply);
    await clicks.unsubscribe(link);
    return html(reply, unsubscribedPage(pageLanguage(req.headers['accept-language'])));
  });
}
