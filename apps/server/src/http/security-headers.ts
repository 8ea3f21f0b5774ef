import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's headers with a strict CSP. HSTS only on a request that came over https (directly, or
 * through a proxy that says so and is trusted, TRUST_PROXY): over plain http the header means
 * nothing, and an intranet install on http must not be told otherwise.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    // The bearer token lives in browser storage: no inline script may run, ever.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Plain-HTTP installs (an intranet host) must keep working; TLS is the proxy's job.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    // The same as frame-ancestors 'none', for browsers that read only this header.
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
