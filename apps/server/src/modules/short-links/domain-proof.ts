import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';

/** The path a domain answers its token at (this app serves it by Host when the domain points here). */
export const WELL_KNOWN_PREFIX = '/.well-known/herald/';
/** The TXT record's name is `_herald.<host>`; the file's body and the record hold the same text. */
export const TXT_PREFIX = '_herald.';
export const proofText = (token: string) => `herald-verify=${token}`;

/** What the check asks of the network; tests hand in their own, so they run offline. */
export interface DomainProbe {
  /** GET `http://<host><path>` (Host: the domain); the status and the first KiB of the body. */
  fetchText(host: string, path: string): Promise<{ status: number; body: string }>;
  /** The TXT records of `name`, each as its chunks (as `dns.resolveTxt` answers). */
  resolveTxt(name: string): Promise<string[][]>;
}

export type ProofResult = { proven: true; by: 'http' | 'dns' } | { proven: false; http: string; dns: string };

const MAX_BODY = 1024;
const MAX_REDIRECTS = 3;

/**
 * The network as it is: HTTP on port 80 of the domain (or, when `baseUrl` is set, of that address
 * with the domain as Host: a reverse proxy in front of the app, or the app itself in browser tests),
 * following redirects only while they stay on the domain (a proxy that sends http to https); DNS by
 * the system's resolvers. Nothing a domain answers is shown or kept: it is compared with the token.
 */
export function createDomainProbe(options: { baseUrl?: string; timeoutMs?: number } = {}): DomainProbe {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });

  function get(url: URL, host: string): Promise<{ status: number; body: string; location?: string }> {
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        {
          method: 'GET',
          headers: { host, accept: 'text/plain', 'user-agent': 'Herald-domain-check/1' },
          timeout: timeoutMs,
          servername: host,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            if (body.length > MAX_BODY) res.destroy();
          });
          const done = () =>
            resolve({ status: res.statusCode ?? 0, body: body.slice(0, MAX_BODY), location: res.headers.location });
          res.on('end', done);
          res.on('close', done);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  return {
    async fetchText(host, path) {
      let url = new URL(path, options.baseUrl ?? `http://${host}`);
      for (let hop = 0; ; hop++) {
        const res = await get(url, host);
        if (res.status < 300 || res.status >= 400 || !res.location || options.baseUrl || hop >= MAX_REDIRECTS) {
          return { status: res.status, body: res.body };
        }
        const next = new URL(res.location, url);
        if (next.hostname !== host || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return { status: res.status, body: '' };
        }
        url = next;
      }
    },
    resolveTxt: (name) => resolver.resolveTxt(name),
  };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/**
 * Does `host` prove it belongs to the holder of `token`? Either its well-known file answers 200
 * with the proof text, or `_herald.<host>` holds it as a TXT record. Both are asked; the reasons
 * they failed are kept for the log.
 */
export async function proveDomain(probe: DomainProbe, host: string, token: string): Promise<ProofResult> {
  const expected = proofText(token);
  const viaHttp = probe
    .fetchText(host, `${WELL_KNOWN_PREFIX}${token}`)
    .then(
      (res) =>
        res.status === 200 && res.body.trim() === expected
          ? 'ok'
          : `HTTP ${res.status}${res.status === 200 ? ', other text' : ''}`,
      reason,
    );
  const viaDns = probe
    .resolveTxt(`${TXT_PREFIX}${host}`)
    .then(
      (records) => (records.some((chunks) => chunks.join('').trim() === expected) ? 'ok' : 'no matching TXT record'),
      reason,
    );
  // The first proof answers: a domain that serves its file does not wait for a slow resolver.
  const proven = (p: Promise<string>, by: 'http' | 'dns') =>
    p.then((r) => (r === 'ok' ? { proven: true as const, by } : new Promise<never>(() => {})));
  const both = Promise.all([viaHttp, viaDns]).then(
    ([http, dns]): ProofResult =>
      http === 'ok'
        ? { proven: true, by: 'http' }
        : dns === 'ok'
          ? { proven: true, by: 'dns' }
          : { proven: false, http, dns },
  );
  return Promise.race([proven(viaHttp, 'http'), proven(viaDns, 'dns'), both]);
}
