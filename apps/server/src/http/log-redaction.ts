import type { FastifyRequest } from 'fastify';

/** Query parameters whose value is a secret: links and forms carry them, logs must not. */
const SECRET_PARAMS = new Set(['token', 'ticket', 'code', 'password', 'signature', 'access_token']);
/** Path segments that are secrets themselves: an invitation's link (the page and the API). */
const SECRET_PATH = /(\/invite\/)[^/?#]+/g;
const REDACTED = '[redacted]';

/** The URL with every secret replaced, as it may appear in a log. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed escape is logged as sent; its value is redacted below if the name is a secret.
      }
      // `password[0]=…`, `Token=…`: the bracketed and differently-cased forms count as the name.
      const base = name.replace(/\[.*$/, '').toLowerCase();
      return SECRET_PARAMS.has(base) && eq >= 0 ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * pino options for the app's logger: requests are logged without secrets (query parameters, the
 * invitation path, Authorization and Cookie headers wherever a log line carries them).
 */
export function loggerOptions(logger: boolean | Record<string, unknown>): boolean | Record<string, unknown> {
  if (logger === false) return false;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: {
      ...((base.serializers as Record<string, unknown> | undefined) ?? {}),
      req: serializeRequest,
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
  };
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
