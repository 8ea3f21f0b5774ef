import { createPublicKey, verify } from 'node:crypto';
import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError, type WebhookRequest } from './gateway-adapter.ts';
import { asRecord, callProvider, httpError, joinUrl } from './http.ts';

/** Telnyx refuses a webhook older than this; so do we (a replayed capture is stale). */
export const TELNYX_TOLERANCE_SECONDS = 300;

// An Ed25519 public key is 32 raw bytes; Node reads it as SPKI with this fixed DER prefix.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The key as Node reads it, or null when the text is not an Ed25519 public key (base64 of 32 bytes). */
function publicKeyOf(publicKeyBase64: string) {
  const text = publicKeyBase64.trim();
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(text)) return null;
  const raw = Buffer.from(text, 'base64');
  if (raw.length !== 32) return null;
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/**
 * Whether a gateway's Telnyx public key can verify anything: checked on save, so a wrong paste is a
 * field error there rather than every callback answered 403 with no hint (decision 025).
 */
export function isTelnyxPublicKey(publicKeyBase64: string): boolean {
  return publicKeyOf(publicKeyBase64) !== null;
}

/** Ed25519 over `${timestamp}|${rawBody}` with the account's public key (base64 of 32 bytes). */
export function verifyTelnyxSignature(
  publicKeyBase64: string,
  timestamp: string,
  rawBody: string,
  signatureBase64: string,
): boolean {
  const key = publicKeyOf(publicKeyBase64);
  const signature = Buffer.from(signatureBase64, 'base64');
  if (!key || signature.length !== 64) return false;
  try {
    return verify(null, Buffer.from(`${timestamp}|${rawBody}`, 'utf8'), key, signature);
  } catch {
    return false;
  }
}

// Telnyx delivery error codes: spam filtering (temporary or permanent) and an unreachable handset.
const BLOCKED = new Set(['40002', '40003', '40300']);
const INACTIVE = new Set(['40006']);

/**
 * `to[].status` onto ours. `delivery_unconfirmed` (the carrier sent no receipt) stays `sent`: it
 * may well have arrived, and counting it failed would trip the campaign's auto-fail rule.
 */
export function mapTelnyxStatus(status: string, errorCode: string | null): TMessageStatus | null {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'sending':
      return 'sending';
    case 'sent':
    case 'delivery_unconfirmed':
      return 'sent';
    case 'delivered':
      return 'delivered';
    case 'sending_failed':
    case 'delivery_failed':
    case 'expired':
      if (errorCode && BLOCKED.has(errorCode)) return 'blocked_by_carrier';
      if (errorCode && INACTIVE.has(errorCode)) return 'inactive_device';
      return status === 'sending_failed' ? 'failed' : 'undelivered';
    default:
      return null;
  }
}

function event(rawBody: string) {
  try {
    const data = asRecord(asRecord(JSON.parse(rawBody)).data);
    return { type: String(data.event_type ?? ''), payload: asRecord(data.payload), occurredAt: data.occurred_at };
  } catch {
    return { type: '', payload: {}, occurredAt: undefined };
  }
}

export function createTelnyxAdapter(ctx: AdapterContext): GatewayAdapter {
  const headers = { authorization: `Bearer ${ctx.credentials.api_key ?? ''}`, 'content-type': 'application/json' };
  const fail = (answer: Awaited<ReturnType<typeof callProvider>>) => {
    const first = asRecord((asRecord(answer.json).errors as unknown[] | undefined)?.[0]);
    return httpError(
      answer,
      first.code === undefined ? undefined : String(first.code),
      String(first.detail ?? first.title ?? `HTTP ${answer.status}`),
    );
  };

  return {
    type: 'telnyx',
    capabilities: GATEWAY_TYPE_INFO.telnyx.capabilities,

    async send({ to, from, text, statusCallbackUrl }) {
      const body: Record<string, unknown> = { to, text, webhook_url: statusCallbackUrl, use_profile_webhooks: false };
      const sender = from || ctx.params.from_telnyx;
      if (sender) body.from = sender;
      if (ctx.params.messaging_profile_id) body.messaging_profile_id = ctx.params.messaging_profile_id;
      const answer = await callProvider(joinUrl(ctx.baseUrl, '/v2/messages'), {
        headers,
        body: JSON.stringify(body),
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status !== 200) throw fail(answer);
      const data = asRecord(asRecord(answer.json).data);
      if (typeof data.id !== 'string') {
        throw new GatewaySendError('unknown_outcome', 'bad_answer', 'Telnyx answered without a message id', {
          raw: answer.text,
        });
      }
      const recipient = asRecord((data.to as unknown[] | undefined)?.[0]);
      const parts = Number(data.parts);
      return {
        providerMessageId: data.id,
        status: mapTelnyxStatus(String(recipient.status ?? 'queued'), null) ?? 'queued',
        parts: Number.isFinite(parts) && parts > 0 ? parts : undefined,
        raw: data,
      };
    },

    verifyWebhook(request: WebhookRequest) {
      const signature = request.headers['telnyx-signature-ed25519'] ?? '';
      const timestamp = request.headers['telnyx-timestamp'] ?? '';
      if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'stale' };
      if (Math.abs(ctx.now() / 1000 - Number(timestamp)) > TELNYX_TOLERANCE_SECONDS)
        return { ok: false, reason: 'stale' };
      if (!verifyTelnyxSignature(ctx.params.public_key ?? '', timestamp, request.rawBody, signature)) {
        return { ok: false, reason: 'signature' };
      }
      // One Telnyx account may hold several profiles: a profile's event is not another gateway's.
      const profile = event(request.rawBody).payload.messaging_profile_id;
      if (ctx.params.messaging_profile_id && profile && profile !== ctx.params.messaging_profile_id) {
        return { ok: false, reason: 'account' };
      }
      return { ok: true };
    },

    parseStatusWebhook(request) {
      const { type, payload, occurredAt } = event(request.rawBody);
      if (type !== 'message.sent' && type !== 'message.finalized') return [];
      const recipient = asRecord((payload.to as unknown[] | undefined)?.[0]);
      const firstError = asRecord((payload.errors as unknown[] | undefined)?.[0]);
      const errorCode = firstError.code === undefined ? null : String(firstError.code);
      const providerStatus = String(recipient.status ?? '');
      const status = mapTelnyxStatus(providerStatus, errorCode);
      if (typeof payload.id !== 'string' || !status) return [];
      const at =
        typeof occurredAt === 'string' && !Number.isNaN(Date.parse(occurredAt))
          ? new Date(occurredAt)
          : new Date(ctx.now());
      return [{ providerMessageId: payload.id, status, providerStatus, errorCode, at }];
    },

    parseInbound(request) {
      const { type, payload } = event(request.rawBody);
      if (type !== 'message.received') return null;
      return {
        from: String(asRecord(payload.from).phone_number ?? ''),
        to: String(asRecord((payload.to as unknown[] | undefined)?.[0]).phone_number ?? ''),
        text: String(payload.text ?? ''),
        providerMessageId: typeof payload.id === 'string' ? payload.id : null,
        at: new Date(ctx.now()),
      };
    },

    async testConnection() {
      const answer = await callProvider(joinUrl(ctx.baseUrl, '/v2/balance'), {
        method: 'GET',
        headers,
        timeoutMs: ctx.timeoutMs,
      });
      if (answer.status !== 200) throw fail(answer);
    },

    async lookup(phone) {
      const answer = await callProvider(
        joinUrl(ctx.baseUrl, `/v2/number_lookup/${encodeURIComponent(phone)}?type=carrier`),
        {
          method: 'GET',
          headers,
          timeoutMs: ctx.timeoutMs,
        },
      );
      if (answer.status !== 200) throw fail(answer);
      const carrier = asRecord(asRecord(asRecord(answer.json).data).carrier);
      return {
        phone,
        carrierName: typeof carrier.name === 'string' ? carrier.name : null,
        carrierType: typeof carrier.type === 'string' ? carrier.type : null,
        raw: answer.json,
      };
    },
  };
}
