import { simulateLookup } from './simulator-lookup.ts';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { GATEWAY_TYPE_INFO } from '@herald/shared/gateways/gateway-types';
import { ZMessageStatus, type TMessageStatus } from '@herald/shared/gateways/message-status';
import { type AdapterContext, type GatewayAdapter, GatewaySendError } from './gateway-adapter.ts';
import { asRecord, callProvider } from './http.ts';

export const SIMULATOR_TOLERANCE_SECONDS = 300;

export function simulatorSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The simulated carrier's clock: reports wait here for their delay, and are dropped when the app
 * stops (a real carrier would retry; a simulator need not outlive its process).
 */
export function createSimulatorCarrier() {
  const timers = new Set<NodeJS.Timeout>();
  /** Messages taken, by the sender's key: a repeated key gets the first message (`dedupesByKey`). */
  const taken = new Map<string, string>();
  return {
    taken(key: string): string | undefined {
      return taken.get(key);
    },
    take(key: string, id: string) {
      taken.set(key, id);
      // The oldest forgotten first: a simulator keeps a day's worth of a busy team, not forever.
      if (taken.size > 200_000) taken.delete(taken.keys().next().value as string);
    },
    later(ms: number, work: () => Promise<void>) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work().catch(() => {});
      }, ms);
      timer.unref();
      timers.add(timer);
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
export type SimulatorCarrier = ReturnType<typeof createSimulatorCarrier>;

/** The outcome of one message, drawn by the gateway's rates (what is left over: inactive device). */
function draw(params: Record<string, string>): TMessageStatus {
  const rate = (key: string) => Math.max(0, Number(params[key] ?? 0)) / 100;
  let roll = Math.random();
  for (const [key, status] of [
    ['delivery_rate', 'delivered'],
    ['failure_rate', 'failed'],
    ['block_rate', 'blocked_by_carrier'],
  ] as const) {
    roll -= rate(key);
    if (roll < 0) return status;
  }
  return 'inactive_device';
}

/**
 * A carrier inside the app: it takes a message, and after the gateway's delay reports `sent` and
 * then its fate to the app's own status webhook, signed with the gateway's secret (and replies,
 * when a reply text is set), the same way in as a real provider's callbacks.
 */
export function createSimulatorAdapter(ctx: AdapterContext, carrier: SimulatorCarrier): GatewayAdapter {
  const secret = ctx.credentials.webhook_secret ?? '';
  const post = async (url: string, payload: Record<string, unknown>) => {
    const body = JSON.stringify({ gateway_id: ctx.gatewayId, ...payload });
    const timestamp = String(Math.floor(ctx.now() / 1000));
    return callProvider(url, {
      headers: {
        'content-type': 'application/json',
        'x-simulator-timestamp': timestamp,
        'x-simulator-signature': simulatorSignature(secret, timestamp, body),
      },
      body,
      timeoutMs: ctx.timeoutMs,
    });
  };
  const latency = () => Math.max(0, Number(ctx.params.latency_ms ?? 1000));

  return {
    type: 'simulator',
    capabilities: GATEWAY_TYPE_INFO.simulator.capabilities,

    async send({ to, from, text, statusCallbackUrl, idempotencyKey }) {
      // A carrier refuses what is not a full international number.
      if (!/^\+[1-9]\d{7,14}$/.test(to)) {
        throw new GatewaySendError('permanent', 'rejected', 'Invalid destination number', {
          providerCode: 'invalid_number',
        });
      }
      const known = carrier.taken(`${ctx.gatewayId}:${idempotencyKey}`);
      if (known) return { providerMessageId: known, status: 'queued', raw: { id: known, repeated: true } };
      const id = `SIM${randomUUID().replaceAll('-', '')}`;
      carrier.take(`${ctx.gatewayId}:${idempotencyKey}`, id);
      const fate = draw(ctx.params);
      const errorCode = fate === 'delivered' ? null : fate;
      const delay = latency();
      carrier.later(Math.floor(delay / 2), async () => {
        await post(statusCallbackUrl, { event: 'status', message_id: id, status: 'sent', error_code: null });
      });
      carrier.later(delay, async () => {
        await post(statusCallbackUrl, { event: 'status', message_id: id, status: fate, error_code: errorCode });
        if (fate === 'delivered' && ctx.params.reply_text) {
          await post(ctx.inboundUrl, {
            event: 'inbound',
            message_id: `${id}R`,
            from: to,
            to: from || ctx.params.from || '',
            text: ctx.params.reply_text,
          });
        }
      });
      return { providerMessageId: id, status: 'queued', raw: { id, length: text.length } };
    },

    async findSent({ idempotencyKey }) {
      const id = carrier.taken(`${ctx.gatewayId}:${idempotencyKey}`);
      return id ? { providerMessageId: id, status: 'queued' } : null;
    },

    verifyWebhook(request) {
      const timestamp = request.headers['x-simulator-timestamp'] ?? '';
      if (!/^\d+$/.test(timestamp) || Math.abs(ctx.now() / 1000 - Number(timestamp)) > SIMULATOR_TOLERANCE_SECONDS) {
        return { ok: false, reason: 'stale' };
      }
      const given = Buffer.from(request.headers['x-simulator-signature'] ?? '');
      const expected = Buffer.from(simulatorSignature(secret, timestamp, request.rawBody));
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'signature' };
      let gatewayId: unknown;
      try {
        gatewayId = asRecord(JSON.parse(request.rawBody)).gateway_id;
      } catch {
        return { ok: false, reason: 'signature' };
      }
      return gatewayId === ctx.gatewayId ? { ok: true } : { ok: false, reason: 'account' };
    },

    parseStatusWebhook(request) {
      const body = asRecord(JSON.parse(request.rawBody));
      const status = ZMessageStatus.safeParse(body.status);
      if (body.event !== 'status' || typeof body.message_id !== 'string' || !status.success) return [];
      return [
        {
          providerMessageId: body.message_id,
          status: status.data,
          providerStatus: status.data,
          errorCode: typeof body.error_code === 'string' ? body.error_code : null,
          at: new Date(ctx.now()),
        },
      ];
    },

    parseInbound(request) {
      const body = asRecord(JSON.parse(request.rawBody));
      if (body.event !== 'inbound') return null;
      return {
        from: String(body.from ?? ''),
        to: String(body.to ?? ''),
        text: String(body.text ?? ''),
        providerMessageId: typeof body.message_id === 'string' ? body.message_id : null,
        at: new Date(ctx.now()),
      };
    },

    async testConnection() {
      // The simulator's one dependency is the way back: a signed ping must reach the app's webhook.
      const answer = await post(ctx.statusUrl, { event: 'ping' });
      if (answer.status !== 200) {
        throw new GatewaySendError(
          'permanent',
          answer.status === 403 ? 'auth' : 'rejected',
          `The app's webhook answered ${answer.status}`,
          {
            httpStatus: answer.status,
          },
        );
      }
    },

    async lookup(phone) {
      // A carrier database answers in about this long (per gateway), then what it knows.
      const wait = Math.max(0, Number(ctx.params.lookup_latency_ms ?? 150));
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const answer = simulateLookup(phone);
      return { phone, carrierName: answer.carrier_name, carrierType: answer.carrier_type, raw: answer };
    },
  };
}
