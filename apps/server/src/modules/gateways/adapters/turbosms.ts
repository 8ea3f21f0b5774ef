import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError } from './gateway-adapter.ts';
import { asRecord, callProvider, digits, httpError, joinUrl, type ProviderAnswer } from './http.ts';

// TurboSMS answers HTTP 200 with its own `response_code`: 0 and 800–803 are success; 103, 105,
// 106 and 301 are the token; 5xx codes are its own failures; the rest refuse the request.
const OK_CODES = new Set([0, 1, 800, 801, 802, 803]);
const AUTH_CODES = new Set([103, 105, 106, 301]);

const STATUS: Record<string, TMessageStatus> = {
  queued: 'queued',
  accepted: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  expired: 'undelivered',
  undelivered: 'undelivered',
  rejected: 'blocked_by_carrier',
  failed: 'failed',
  cancelled: 'failed',
};

export function mapTurboSmsStatus(status: string): TMessageStatus | null {
  return STATUS[status.toLowerCase()] ?? null;
}

function codeError(answer: ProviderAnswer): GatewaySendError | null {
  if (answer.status !== 200) return httpError(answer);
  const body = asRecord(answer.json);
  const code = Number(body.response_code);
  if (!Number.isFinite(code))
    return new GatewaySendError('unknown_outcome', 'bad_answer', 'TurboSMS answered without a code', {
      raw: answer.text,
    });
  if (OK_CODES.has(code)) return null;
  const extra = { providerCode: String(code), raw: body };
  const message = String(body.response_status ?? code);
  if (AUTH_CODES.has(code)) return new GatewaySendError('permanent', 'auth', message, extra);
  if (code >= 500 && code < 600) return new GatewaySendError('retryable', 'provider_error', message, extra);
  return new GatewaySendError('permanent', 'rejected', message, extra);
}

/** TurboSMS: bearer token, alpha sender, statuses polled (no delivery webhook is documented). */
export function createTurboSmsAdapter(ctx: AdapterContext): GatewayAdapter {
  const headers = { authorization: `Bearer ${ctx.credentials.access_token ?? ''}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) =>
    callProvider(joinUrl(ctx.baseUrl, path), { headers, body: JSON.stringify(body), timeoutMs: ctx.timeoutMs });

  return {
    type: 'turbosms',
    capabilities: GATEWAY_TYPE_INFO.turbosms.capabilities,

    async send({ to, from, text }) {
      const answer = await post('/message/send.json', {
        recipients: [digits(to)],
        sms: { sender: from || ctx.params.from, text },
      });
      const error = codeError(answer);
      if (error) throw error;
      const result = asRecord((asRecord(answer.json).response_result as unknown[] | undefined)?.[0]);
      if (typeof result.message_id !== 'string') {
        // The recipient was refused on its own (stop list, bad number): nothing was sent.
        const code = Number(result.response_code);
        if (Number.isFinite(code) && code !== 0) {
          throw new GatewaySendError('permanent', 'rejected', String(result.response_status ?? code), {
            providerCode: String(code),
            raw: answer.json,
          });
        }
        throw new GatewaySendError('unknown_outcome', 'bad_answer', 'TurboSMS answered without a message id', {
          raw: answer.text,
        });
      }
      return { providerMessageId: result.message_id, status: 'queued', raw: answer.json };
    },

    verifyWebhook: () => ({ ok: false, reason: 'unsupported' }),
    parseStatusWebhook: () => [],

    async pollStatuses(ids) {
      if (ids.length === 0) return [];
      const answer = await post('/message/status.json', { messages: ids });
      const error = codeError(answer);
      if (error) throw error;
      const reports: TStatusReport[] = [];
      for (const item of (asRecord(answer.json).response_result as unknown[] | undefined) ?? []) {
        const row = asRecord(item);
        const providerStatus = String(row.status ?? '');
        const status = mapTurboSmsStatus(providerStatus);
        if (typeof row.message_id !== 'string' || !status) continue;
        const at =
          typeof row.updated === 'string' && !Number.isNaN(Date.parse(row.updated))
            ? new Date(row.updated)
            : new Date(ctx.now());
        reports.push({ providerMessageId: row.message_id, status, providerStatus, errorCode: null, at });
      }
      return reports;
    },

    async testConnection() {
      const error = codeError(await post('/user/balance.json', {}));
      if (error) throw error;
    },
  };
}
