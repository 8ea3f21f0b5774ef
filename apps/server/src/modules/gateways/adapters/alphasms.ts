import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError } from './gateway-adapter.ts';
import { asRecord, bodyFields, callProvider, digits, httpError, joinUrl, type ProviderAnswer } from './http.ts';

const STATUS: Record<string, TMessageStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'undelivered',
  expired: 'undelivered',
  rejected: 'blocked_by_carrier',
  failed: 'failed',
};

export function mapAlphaSmsStatus(status: string): TMessageStatus | null {
  return STATUS[status.toLowerCase()] ?? null;
}

/**
 * AlphaSMS signs nothing: the per-message `hook` URL carries our own proof, an HMAC of the
 * message's key with the gateway's webhook secret, so a forged report needs that secret.
 */
export function alphaHookToken(webhookSecret: string, key: string): string {
  return createHmac('sha256', webhookSecret).update(`alphasms:${key}`).digest('base64url');
}

/**
 * The message row a verified hook names: its key is `msg-<row>` (the send's idempotency key), and
 * the token covers the key, so the row is proven; the body's `msg_id` must then be that row's
 * (decision 025), or one hook URL could move any message of the gateway.
 */
export function alphaHookRow(url: string): { id: number; signed: true } | null {
  const key = new URL(url).searchParams.get('key') ?? '';
  const row = /^msg-([1-9]\d{0,17})$/.exec(key);
  return row ? { id: Number(row[1]), signed: true } : null;
}

function firstResult(answer: ProviderAnswer): Record<string, unknown> {
  if (answer.status !== 200) throw httpError(answer);
  const body = asRecord(answer.json);
  if (body.success !== true) {
    const message = String(body.error ?? 'refused');
    // The whole call was refused: a wrong key is the usual reason.
    const kind = /auth|key|login/i.test(message) ? 'auth' : 'rejected';
    throw new GatewaySendError('permanent', kind, message, { raw: body });
  }
  const item = asRecord((body.data as unknown[] | undefined)?.[0]);
  if (item.success !== true) {
    throw new GatewaySendError('permanent', 'rejected', String(item.error ?? 'refused'), { raw: body });
  }
  return asRecord(item.data);
}

/** AlphaSMS: the key in the body, alpha sender, a delivery hook per message. */
export function createAlphaSmsAdapter(ctx: AdapterContext): GatewayAdapter {
  const secret = ctx.credentials.webhook_secret ?? '';
  const post = (data: unknown[]) =>
    callProvider(joinUrl(ctx.baseUrl, '/api/json.php'), {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: ctx.credentials.api_key ?? '', data }),
      timeoutMs: ctx.timeoutMs,
    });

  return {
    type: 'alphasms',
    capabilities: GATEWAY_TYPE_INFO.alphasms.capabilities,

    async send({ to, from, text, statusCallbackUrl, idempotencyKey }) {
      const hook = new URL(statusCallbackUrl);
      hook.searchParams.set('key', idempotencyKey);
      hook.searchParams.set('token', alphaHookToken(secret, idempotencyKey));
      const answer = await post([
        {
          type: 'sms',
          // Our own id: AlphaSMS answers a repeated id with the first message instead of a second.
          id: idempotencyKey,
          phone: digits(to),
          sms_signature: from || ctx.params.from,
          sms_message: text,
          hook: hook.toString(),
        },
      ]);
      const data = firstResult(answer);
      const id = data.msg_id ?? data.id;
      if (id === undefined || id === null) {
        throw new GatewaySendError('unknown_outcome', 'bad_answer', 'AlphaSMS answered without a message id', {
          raw: answer.text,
        });
      }
      const parts = Number(data.parts);
      return {
        providerMessageId: String(id),
        status: 'queued',
        parts: parts > 0 ? parts : undefined,
        raw: answer.json,
      };
    },

    verifyWebhook(request) {
      const url = new URL(request.url);
      const key = url.searchParams.get('key') ?? '';
      const given = Buffer.from(url.searchParams.get('token') ?? '');
      const expected = Buffer.from(alphaHookToken(secret, key));
      if (!key || given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'signature' };
      return { ok: true };
    },

    parseStatusWebhook(request) {
      const fields = bodyFields(request.rawBody, request.headers['content-type']);
      const id = fields.msg_id || fields.id;
      const providerStatus = fields.status ?? '';
      const status = mapAlphaSmsStatus(providerStatus);
      if (!id || !status) return [];
      return [
        {
          providerMessageId: id,
          status,
          providerStatus,
          errorCode: fields.error_code || null,
          at: new Date(ctx.now()),
        },
      ];
    },

    async testConnection() {
      firstResult(await post([{ type: 'balance' }]));
    },
  };
}
