import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';
import { redactUrl } from './log-redaction.ts';

/**
 * Paths that name a file, not a screen: a missing one is a 404, never the page (a script answered
 * with HTML would fail in the browser with a misleading error, and be cached as the script).
 */
const FILE_PATH =
  /^\/assets\/|\.(?:m?js|css|map|json|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|txt|xml|webmanifest)$/i;

/**
 * Serves the built web app with history fallback, so one process and one port serve everything.
 * Unknown `/api/*` paths and missing files get the JSON 404 instead of the page.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  const hasWeb = existsSync(distDir);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Routes for the files present at start; a rebuilt web app is served after a restart.
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (apps/web/vite.config.ts); sent by Accept-Encoding.
      preCompressed: true,
      setHeaders(res, path) {
        // Vite's hashed assets never change; the page itself must always be fresh.
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isPage = !path.startsWith('/api') && !FILE_PATH.test(path);
    if (!isPage || !hasWeb || (request.method !== 'GET' && request.method !== 'HEAD')) {
      // The message is logged too: an invitation's token in a mistyped path stays out of it.
      throw new AppError('route_not_found', `Route ${request.method} ${redactUrl(path)} not found`);
    }
    return reply.sendFile('index.html');
  });
}
