import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError, type WebhookRequest } from './gateway-adapter.ts';
import { asRecord, basicAuth, callProvider, httpError, joinUrl } from './http.ts';

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed by the auth token, over the full URL followed by
 * every POST parameter as name+value, sorted by name (all of them: Twilio adds fields unannounced).
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    const values = Array.isArray(value) ? [...new Set(value)].sort() : [value];
    for (const v of values) data += name + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Twilio may sign the URL with or without the default port; either is accepted (as its helper does). */
function urlVariants(url: string): string[] {
  const parsed = new URL(url);
  const withoutPort = new URL(url);
  withoutPort.port = '';
  const withPort = new URL(url);
  if (!parsed.port) withPort.host = `${parsed.hostname}:${parsed.protocol === 'https:' ? 443 : 80}`;
  return [...new Set([url, withoutPort.toString(), withPort.toString()])];
}

/** A callback's form, parsed once: its signature is checked, then its report read, from the same request. */
const parsedForms = new WeakMap<WebhookRequest, Record<string, string | string[]>>();

function formParams(request: WebhookRequest): Record<string, string | string[]> {
  let out = parsedForms.get(request);
  if (!out) {
    out = parseForm(request.rawBody);
    parsedForms.set(request, out);
  }
  return out;
}

function parseForm(rawBody: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(rawBody)) {
    const prior = out[k];
    out[k] = prior === undefined ? v : Array.isArray(prior) ? [...prior, v] : [prior, v];
  }
  return out;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

// Twilio's delivery error codes, onto the spec's statuses (wave2-brief §1.4).
const INACTIVE = new Set(['30003', '30005']);
const BLOCKED = new Set(['30004', '30007']);

export function mapTwilioStatus(status: string, errorCode: string | null): TMessageStatus | null {
  switch (status) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
      return 'queued';
    case 'sending':
      return 'sending';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
    case 'partially_delivered':
      return 'delivered';
    case 'undelivered':
    case 'failed':
    case 'canceled':
      if (errorCode && BLOCKED.has(errorCode)) return 'blocked_by_carrier';
      if (errorCode && INACTIVE.has(errorCode)) return 'inactive_device';
      return status === 'undelivered' ? 'undelivered' : 'failed';
    default:
      return null;
  }
}

export function createTwilioAdapter(ctx: AdapterContext): GatewayAdapter {
  const sid = ctx.params.sid ?? '';
  const token = ctx.credentials.token ?? '';
  const auth = basicAuth(sid, token);
  const api = (path: string) => joinUrl(ctx.baseUrl, `/2010-04-01/Accounts/${encodeURIComponent(sid)}${path}`);

  const fail = (answer: Awaited<ReturnType<typeof callProvider>>) => {
    const body = asRecord(answer.json);
    const code = body.code === undefined ? undefined : String(body.code);
    return httpError(answer, code, typeof body.message === 'string' ? body.message : undefined);
  };

  return {
    type: 'twilio',
    capabilities: GATEWAY_TYPE_INFO.twilio.capabilities,

    async send({ to, from, text, statusCallbackUrl, idempotencyKey }) {
      const form = new URLSearchParams({ To: to, From: from || ctx.params.from_twilio || '', Body: text });
      form.set('StatusCallback', statusCallbackUrl);
      const answer = await callProvider(api('/Messages.json'), {
        headers: {
          authorization: auth,
          'content-type': 'application/x-www-form-urlencoded',
          // Twilio may drop a repeated create carrying the same token; it does not document it, so
          // the capability `dedupesByKey` stays false and nothing relies on it.
          'i-twilio-idempotency-token': idempotencyKey,
        },
        body: form.toString(),
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status !== 200 && answer.status !== 201) throw fail(answer);
      const body = asRecord(answer.json);
      if (typeof body.sid !== 'string') {
        throw new GatewaySendError('unknown_outcome', 'bad_answer', 'Twilio answered without a message sid', {
          raw: answer.text,
        });
      }
      const parts = Number(body.num_segments);
      return {
        providerMessageId: body.sid,
        status: mapTwilioStatus(String(body.status), null) ?? 'queued',
        // "0" through a Messaging Service: no sender chosen yet, so no count.
        parts: Number.isFinite(parts) && parts > 0 ? parts : undefined,
        raw: body,
      };
    },

    /**
     * Twilio keeps every message: its Messages list, filtered by `To` and by the day the call began
     * (`DateSent>=`, a GMT date), holds ours if it took it. Matched by its text and a creation time
     * not before the call began (a minute's leeway for clocks); a sid another row holds is never ours.
     */
    async findSent({ to, text, calledAt, exclude }) {
      const since = new Date(calledAt.getTime() - 60_000);
      const query = new URLSearchParams({ To: to, 'DateSent>': since.toISOString().slice(0, 10), PageSize: '100' });
      const answer = await callProvider(api(`/Messages.json?${query}`), {
        method: 'GET',
        headers: { authorization: auth },
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status !== 200) throw fail(answer);
      const list = asRecord(answer.json).messages;
      for (const item of Array.isArray(list) ? list.map(asRecord) : []) {
        const created = Date.parse(String(item.date_created ?? item.date_sent ?? ''));
        if (typeof item.sid !== 'string' || exclude?.has(item.sid)) continue;
        if (item.body !== text || item.to !== to || !(created >= since.getTime())) continue;
        const errorCode = item.error_code === null || item.error_code === undefined ? null : String(item.error_code);
        return { providerMessageId: item.sid, status: mapTwilioStatus(String(item.status), errorCode) ?? 'queued' };
      }
      return null;
    },

    verifyWebhook(request: WebhookRequest) {
      // Webhook Rules (HMAC-SHA256 with a shared key) are another scheme: refused until supported.
      if (request.headers['x-twilio-webhooks-signature-settings']) return { ok: false, reason: 'unsupported' };
      const header = request.headers['x-twilio-signature'] ?? '';
      const params = formParams(request);
      const given = Buffer.from(header);
      const signs = (url: string) => {
        const expected = Buffer.from(twilioSignature(token, url, params));
        return expected.length === given.length && timingSafeEqual(expected, given);
      };
      // The URL as called first: the other spellings are parsed only when it does not match.
      const matches = signs(request.url) || urlVariants(request.url).some((url) => url !== request.url && signs(url));
      if (!matches) return { ok: false, reason: 'signature' };
      // Signed with our token yet for another account: a subaccount's callback, not this gateway's.
      if (one(params.AccountSid) !== sid) return { ok: false, reason: 'account' };
      return { ok: true };
    },

    parseStatusWebhook(request) {
      const p = formParams(request);
      const id = one(p.MessageSid) || one(p.SmsSid);
      const providerStatus = one(p.MessageStatus) || one(p.SmsStatus);
      const errorCode = one(p.ErrorCode) || null;
      const status = mapTwilioStatus(providerStatus, errorCode);
      if (!id || !status) return [];
      const report: TStatusReport = {
        providerMessageId: id,
        status,
        providerStatus,
        errorCode,
        at: new Date(ctx.now()),
      };
      return [report];
    },

    parseInbound(request) {
      const p = formParams(request);
      if (!one(p.From)) return null;
      return {
        from: one(p.From),
        to: one(p.To),
        text: one(p.Body),
        providerMessageId: one(p.MessageSid) || null,
        at: new Date(ctx.now()),
      };
    },

    async testConnection() {
      const answer = await callProvider(api('.json'), {
        method: 'GET',
        headers: { authorization: auth },
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status !== 200) throw fail(answer);
    },

    async lookup(phone) {
      const base = ctx.params.base_url ? ctx.baseUrl : 'https://lookups.twilio.com';
      const answer = await callProvider(
        joinUrl(base, `/v2/PhoneNumbers/${encodeURIComponent(phone)}?Fields=line_type_intelligence`),
        { method: 'GET', headers: { authorization: auth }, timeoutMs: ctx.timeoutMs },
      );
      if (answer.status !== 200) throw fail(answer);
      const lti = asRecord(asRecord(answer.json).line_type_intelligence);
      return {
        phone,
        carrierName: typeof lti.carrier_name === 'string' ? lti.carrier_name : null,
        carrierType: typeof lti.type === 'string' ? lti.type : null,
        raw: answer.json,
      };
    },

    webhookAnswer(kind) {
      // Replies expect TwiML; an empty Response sends nothing back to the sender.
      return kind === 'inbound'
        ? { contentType: 'text/xml', body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>' }
        : { contentType: 'text/plain', body: '' };
    },
  };
}
