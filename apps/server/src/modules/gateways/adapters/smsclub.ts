import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError } from './gateway-adapter.ts';
import { asRecord, callProvider, digits, httpError, joinUrl, type ProviderAnswer } from './http.ts';

// SMPP-style delivery states, as SMS Club's status call returns them.
const STATUS: Record<string, TMessageStatus> = {
  ACCEPTD: 'queued',
  ENROUTE: 'sent',
  DELIVRD: 'delivered',
  EXPIRED: 'undelivered',
  UNDELIV: 'undelivered',
  REJECTD: 'blocked_by_carrier',
  DELETED: 'failed',
};

export function mapSmsClubStatus(status: string): TMessageStatus | null {
  return STATUS[status.toUpperCase()] ?? null;
}

/** `success_request.info`, or the error the answer carries. */
function info(answer: ProviderAnswer): Record<string, unknown> {
  if (answer.status !== 200) throw httpError(answer);
  const body = asRecord(answer.json);
  const success = asRecord(body.success_request);
  if (body.success_request) return asRecord(success.info);
  const error = asRecord(body.error_request);
  if (body.error_request) {
    throw new GatewaySendError('permanent', 'rejected', String(error.info ?? 'refused'), {
      providerCode: error.code === undefined ? undefined : String(error.code),
      raw: body,
    });
  }
  throw new GatewaySendError('unknown_outcome', 'bad_answer', 'SMS Club answered without a result', {
    raw: answer.text,
  });
}

/** SMS Club: bearer token, alpha sender (`src_addr`), up to 100 numbers a call, statuses polled. */
export function createSmsClubAdapter(ctx: AdapterContext): GatewayAdapter {
  const headers = { authorization: `Bearer ${ctx.credentials.access_token ?? ''}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) =>
    callProvider(joinUrl(ctx.baseUrl, path), { headers, body: JSON.stringify(body), timeoutMs: ctx.timeoutMs });

  return {
    type: 'smsclub',
    capabilities: GATEWAY_TYPE_INFO.smsclub.capabilities,

    async send({ to, from, text }) {
      const answer = await post('/sms/send', { phone: [digits(to)], message: text, src_addr: from || ctx.params.from });
      const ids = Object.keys(info(answer));
      if (ids.length !== 1) {
        throw new GatewaySendError('unknown_outcome', 'bad_answer', 'SMS Club answered without one message id', {
          raw: answer.text,
        });
      }
      return { providerMessageId: ids[0], status: 'queued', raw: answer.json };
    },

    verifyWebhook: () => ({ ok: false, reason: 'unsupported' }),
    parseStatusWebhook: () => [],

    async pollStatuses(ids) {
      if (ids.length === 0) return [];
      const statuses = info(await post('/sms/status', { id_sms: ids }));
      const reports: TStatusReport[] = [];
      for (const [id, value] of Object.entries(statuses)) {
        const providerStatus = String(value);
        const status = mapSmsClubStatus(providerStatus);
        if (status)
          reports.push({ providerMessageId: id, status, providerStatus, errorCode: null, at: new Date(ctx.now()) });
      }
      return reports;
    },

    async testConnection() {
      info(await post('/sms/balance', {}));
    },
  };
}
