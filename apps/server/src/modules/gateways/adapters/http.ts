import { Agent, type Dispatcher, request } from 'undici';
import { GatewaySendError } from './gateway-adapter.ts';

export interface ProviderAnswer {
  status: number;
  text: string;
  /** The body read as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** A 429's or 503's `Retry-After`, in milliseconds, when it gave one. */
  retryAfterMs?: number;
}

/** `Retry-After` as seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The connections every provider call shares: undici's own client (Node's `fetch` is built on it)
 * without the WHATWG layers `fetch` adds per call, which halved the calls a process could make
 * (decision 024). Keep-alive per provider host; redirects are never followed (a 3xx is an answer).
 */
const providers = new Agent({ connections: 128, keepAliveTimeout: 10_000 });

/**
 * One call to a provider. A call that never connected is `retryable` (nothing reached them); one
 * that timed out or broke after sending is `unknown_outcome`: the provider may have acted on it.
 */
export async function callProvider(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<ProviderAnswer> {
  const signal = AbortSignal.timeout(init.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: (init.method ?? 'POST') as Dispatcher.HttpMethod,
      headers: init.headers,
      body: init.body,
      signal,
      dispatcher: providers,
    });
  } catch (error) {
    throw networkError(error, signal);
  }
  let text: string;
  try {
    text = await response.body.text();
  } catch (error) {
    throw networkError(error, signal);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const retryAfter = response.headers['retry-after'];
  return {
    status: response.statusCode,
    text,
    json,
    retryAfterMs: retryAfterMs(Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null)),
  };
}

function networkError(error: unknown, signal: AbortSignal): GatewaySendError {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  if (signal.aborted || e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new GatewaySendError('unknown_outcome', 'timeout', 'The provider did not answer in time');
  }
  const code = e.code ?? e.cause?.code;
  // Refused or unresolvable before a byte was sent: the provider cannot have acted on it.
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new GatewaySendError('retryable', 'network', `The provider could not be reached (${code})`);
  }
  return new GatewaySendError('unknown_outcome', 'network', `The connection broke: ${code ?? e.name ?? 'error'}`);
}

/** The usual meaning of an HTTP error status across providers. */
export function httpError(answer: ProviderAnswer, providerCode?: string, detail?: string): GatewaySendError {
  const { status } = answer;
  const message = detail ?? `HTTP ${status}`;
  const extra = {
    httpStatus: status,
    providerCode,
    raw: answer.json ?? answer.text,
    retryAfterMs: answer.retryAfterMs,
  };
  if (status === 401 || status === 403) return new GatewaySendError('permanent', 'auth', message, extra);
  // 429: never processed (Twilio says so explicitly). 5xx: the provider says it failed, yet it may
  // have taken the message; the dispatch sends again only through an adapter that dedupes by key.
  if (status === 429) return new GatewaySendError('retryable', 'rate_limited', message, extra);
  if (status >= 500) return new GatewaySendError('retryable', 'provider_error', message, extra);
  return new GatewaySendError('permanent', 'rejected', message, extra);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Providers that want the number without `+`. */
export function digits(phone: string): string {
  return phone.replace(/\D/g, '');
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** `a.b.0.c` read from parsed JSON. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A form-encoded or JSON body as flat string fields (webhooks of providers that send either). */
export function bodyFields(rawBody: string, contentType: string | undefined): Record<string, string> {
  if (contentType?.includes('json') || rawBody.trimStart().startsWith('{')) {
    try {
      const parsed = asRecord(JSON.parse(rawBody));
      return Object.fromEntries(
        Object.entries(parsed).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]),
      );
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(rawBody));
}
