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
  /** Work started after a reply was sent (a click being recorded); awaited when the app closes. */
  pending: Set<Promise<void>>;
}

/**
 * `GET|HEAD|POST /{code}` at the root, on the app's own origin and on every team's domain (by the
 * Host header). Only a path of 7–15 base-62 characters reaches it; on the app's own host a path
 * that is no link (a screen such as `/settings`) goes on to the web app as before, so the web
 * app's routes are never shadowed. A link answers only on its own host and the app's.
 */
export async function shortLinkRedirectRoutes(app: FastifyInstance, deps: RedirectDeps) {
  const { repo, clicks, appHost, pending } = deps;
  const path = `/:code(^[0-9A-Za-z]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$)`;

  // The unsubscribe page's form posts urlencoded; nothing of its body is read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
    done(null, {}),
  );

  async function linkOf(req: FastifyRequest<{ Params: { code: string } }>): Promise<ShortLinkRow | undefined> {
    const { code } = req.params;
    if (!CODE_PATTERN.test(code)) return undefined;
    const link = await repo.findByCode(code);
    const host = req.host.toLowerCase();
    if (!link || (host !== appHost && host !== link.host)) return undefined;
    return link;
  }

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
      await repo.countHit(Number(link.id), false);
      return html(reply, unsubscribePage(pageLanguage(req.headers['accept-language'])));
    }
    // Answer first, record after: the person is on the way while the click is written.
    reply.code(302).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    reply.redirect(link.redirect_to as string, 302);
    const recording = clicks
      .record(link, reason)
      .catch((error) => req.log.error({ err: error, link: link.id }, 'short link click not recorded'))
      .finally(() => pending.delete(recording));
    pending.add(recording);
    return reply;
  });

  app.post<{ Params: { code: string } }>(path, { schema: { hide: true } }, async (req, reply) => {
    const link = await linkOf(req);
    if (link?.kind !== 'unsubscribe') return notFound(req, reply);
    await clicks.unsubscribe(link);
    return html(reply, unsubscribedPage(pageLanguage(req.headers['accept-language'])));
  });
}
