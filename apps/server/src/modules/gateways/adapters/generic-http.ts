import { createHmac, timingSafeEqual } from 'node:crypto';
import { gatewayCapabilities } from '@herald/shared/gateways/gateway-types';
import { MESSAGE_STATUSES, type TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError, type LookupResult } from './gateway-adapter.ts';
import { basicAuth, bodyFields, callProvider, httpError, readPath } from './http.ts';

/** The token a generic provider's status URL carries: providers of this kind can only be given a URL. */
export function genericHookToken(webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update('generic_http:status').digest('base64url');
}

/** `THEIRS=ours` lines; case-insensitive on their side. */
export function parseStatusMap(text: string): Map<string, TMessageStatus> {
  const map = new Map<string, TMessageStatus>();
  for (const line of text.split(/\r?\n/)) {
    const [theirs, ours] = line.split('=').map((s) => s?.trim());
    if (theirs && ours && (MESSAGE_STATUSES as readonly string[]).includes(ours))
      map.set(theirs.toLowerCase(), ours as TMessageStatus);
  }
  return map;
}

/** `THEIRS=ours` lines (line types, statuses); case-insensitive on their side, ours as written. */
export function parseValueMap(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const [theirs, ours] = line.split('=').map((s) => s?.trim());
    if (theirs && ours) map.set(theirs.toLowerCase(), ours);
  }
  return map;
}

/** A value through a `THEIRS=ours` map; a value the map does not name is passed on as it is. */
function mapped<T extends string | boolean | null>(value: T, map: string | undefined): T | string {
  if (value === null) return value;
  return parseValueMap(map ?? '').get(String(value).toLowerCase()) ?? value;
}

const scalar = (v: unknown): string | boolean | null =>
  typeof v === 'string' || typeof v === 'boolean' ? v : typeof v === 'number' ? String(v) : null;

/**
 * What a lookup answer holds at the gateway's paths: the fields the lookup normalizer reads for
 * this type (lookup-normalize.ts), the line type and the status put through the gateway's maps.
 * A path not given or not found reads as null.
 */
export function readLookupAnswer(params: Record<string, string>, json: unknown, phone: string): LookupResult {
  const at = (path: string | undefined) => (path?.trim() ? scalar(readPath(json, path.trim())) : null);
  const carrier = at(params.lookup_carrier_path);
  const theirType = at(params.lookup_type_path);
  const type = theirType === null ? null : String(mapped(theirType, params.lookup_type_map));
  const fields = {
    carrier_name: typeof carrier === 'string' ? carrier : null,
    mcc_mnc: at(params.lookup_mcc_mnc_path),
    line_type: type,
    valid: mapped(at(params.lookup_valid_path), params.lookup_valid_map),
    ported: at(params.lookup_ported_path),
  };
  return { phone, carrierName: fields.carrier_name, carrierType: type, raw: { fields, answer: json } };
}

/** Fills `{{to}}` and friends; in a JSON template each value is JSON-escaped so a quote cannot break it. */
export function renderTemplate(
  template: string,
  values: Record<string, string>,
  encode: 'json' | 'url' | 'none',
): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    if (encode === 'json') return JSON.stringify(value).slice(1, -1);
    if (encode === 'url') return encodeURIComponent(value);
    return value;
  });
}

/** Any HTTP provider: URL, method, auth, a body template and where the answer keeps the id. */
export function createGenericHttpAdapter(ctx: AdapterContext): GatewayAdapter {
  const p = ctx.params;
  const headers = (): Record<string, string> => {
    if (p.auth_scheme === 'bearer') return { authorization: `Bearer ${ctx.credentials.access_token ?? ''}` };
    if (p.auth_scheme === 'basic') return { authorization: basicAuth(p.user ?? '', ctx.credentials.password ?? '') };
    return {};
  };
  const statusUrlFor = (base: string) => {
    const url = new URL(base);
    url.searchParams.set('token', genericHookToken(ctx.credentials.webhook_secret ?? ''));
    return url.toString();
  };

  const lookupUrl = p.lookup_url?.trim();
  async function lookup(phone: string): Promise<LookupResult> {
    const answer = await callProvider(renderTemplate(lookupUrl ?? '', { phone }, 'url'), {
      method: 'GET',
      headers: headers(),
      timeoutMs: ctx.timeoutMs,
    });
    if (answer.status < 200 || answer.status >= 300) throw httpError(answer);
    // Not JSON: nothing to read the paths from; failed (refunded, tried again), not a result.
    if (answer.json === undefined)
      throw new GatewaySendError('retryable', 'bad_answer', 'The lookup answer is not JSON', { raw: answer.text });
    return readLookupAnswer(p, answer.json, phone);
  }

  return {
    type: 'generic_http',
    capabilities: gatewayCapabilities('generic_http', p),
    ...(lookupUrl ? { lookup } : {}),

    async send({ to, from, text, statusCallbackUrl, idempotencyKey }) {
      const values = {
        to,
        from: from || p.from || '',
        text,
        status_url: statusUrlFor(statusCallbackUrl),
        id: idempotencyKey,
      };
      const template = p.body_template ?? '';
      const isJson = template.trimStart().startsWith('{') || template.trimStart().startsWith('[');
      const method = p.method === 'GET' ? 'GET' : 'POST';
      const url = method === 'GET' ? renderTemplate(p.url ?? '', values, 'url') : (p.url ?? '');
      const answer = await callProvider(url, {
        method,
        headers: {
          ...headers(),
          ...(method === 'POST'
            ? { 'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded' }
            : {}),
        },
        body: method === 'POST' ? renderTemplate(template, values, isJson ? 'json' : 'url') : undefined,
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status < 200 || answer.status >= 300) throw httpError(answer);
      const id = readPath(answer.json, p.message_id_path ?? 'id');
      if (typeof id !== 'string' && typeof id !== 'number') {
        // A 2xx without the id where it was said to be: it may have been taken.
        throw new GatewaySendError('unknown_outcome', 'bad_answer', `No message id at "${p.message_id_path}"`, {
          raw: answer.text,
        });
      }
      return { providerMessageId: String(id), status: 'queued', raw: answer.json ?? answer.text };
    },

    verifyWebhook(request) {
      const given = Buffer.from(new URL(request.url).searchParams.get('token') ?? '');
      const expected = Buffer.from(genericHookToken(ctx.credentials.webhook_secret ?? ''));
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? { ok: true }
        : { ok: false, reason: 'signature' };
    },

    parseStatusWebhook(request) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        parsed = bodyFields(request.rawBody, request.headers['content-type']);
      }
      const id = readPath(parsed, p.status_id_path || 'id');
      const providerStatus = readPath(parsed, p.status_value_path || 'status');
      if ((typeof id !== 'string' && typeof id !== 'number') || typeof providerStatus !== 'string') return [];
      const status = parseStatusMap(p.status_map ?? '').get(providerStatus.toLowerCase());
      if (!status) return [];
      return [{ providerMessageId: String(id), status, providerStatus, errorCode: null, at: new Date(ctx.now()) }];
    },

    async testConnection() {
      // No standard "who am I" call exists: reach the URL with the credentials; a refusal of them
      // (401/403) or no answer fails, any other answer (even 405 to a GET) shows both work.
      const answer = await callProvider(p.url ?? '', { method: 'GET', headers: headers(), timeoutMs: ctx.timeoutMs });
      if (answer.status === 401 || answer.status === 403 || answer.status >= 500) throw httpError(answer);
    },
  };
}
