import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's headers with a strict CSP. HSTS only on a request that came over https (directly, or
 * through a proxy that says so and is trusted, TRUST_PROXY): over plain http the header means
 * nothing, and an intranet install on http must not be told otherwise.
 *
 * The headers are the same for every response (no nonces), so helmet runs once, at start, and
 * each reply gets the headers it set. `@fastify/helmet` ran helmet for every request, parsing the
 * policy again each time: 8% of a delivery report's cost on the main thread (`bench/README.md`).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  /** Origins besides this app's own that forms may post to: the hosted payment checkout. */
  formTargets: string[] = [],
) {
  const headers = securityHeaders(formTargets);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}

/** The headers helmet sets with this policy, as it sets them (read off a response it writes to). */
export function securityHeaders(formTargets: string[]): Record<string, string> {
  const middleware = helmet({
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
        formAction: ["'self'", ...formTargets],
        // Plain-HTTP installs (an intranet host) must keep working; TLS is the proxy's job.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    // The same as frame-ancestors 'none', for browsers that read only this header.
    xFrameOptions: { action: 'deny' },
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}
