import type { TInboundMessage, TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TGatewayType } from '@herald/shared/gateways/gateway-types';
import { message } from '@herald/shared/common/messages';
import { AppError } from '../../http/app-error.ts';
import { alphaHookRow } from './adapters/alphasms.ts';
import type { WebhookAnswer, WebhookKind, WebhookRequest } from './adapters/gateway-adapter.ts';
import type { GatewaysService } from './gateways.service.ts';

/** The row a callback's URL names, and whether the verified signature covers that name. */
export interface ReportRow {
  id: number;
  signed: boolean;
}

export interface StatusEvent {
  teamId: number;
  gatewayId: number;
  reports: Array<TStatusReport & { row: ReportRow | null }>;
}
export interface InboundEvent {
  teamId: number;
  gatewayId: number;
  message: TInboundMessage;
}

/**
 * The message row a status callback names (decision 025): every status URL carries `?m=<row>`.
 * Twilio signs the whole URL, so there the name is proven; AlphaSMS's hook carries our own token
 * over `key=msg-<row>`, so the row is the key's and nothing else; other providers sign the body
 * only, so the name is a hint the provider's id must agree with.
 */
export function rowOfCallback(type: TGatewayType, url: string): ReportRow | null {
  if (type === 'alphasms') return alphaHookRow(url);
  const m = new URL(url).searchParams.get('m') ?? '';
  if (!/^[1-9]\d{0,17}$/.test(m)) return null;
  return { id: Number(m), signed: type === 'twilio' };
}

// PostgreSQL stores no NUL in text, and a lone surrogate is not UTF-8: a signed callback carrying
// either is stored without them rather than refused (the provider would only send it again).
const storable = (text: string) => text.toWellFormed().replaceAll('\u0000', '');
/** A provider's id, as stored and indexed: real ones are under 64 characters (Twilio 34, Telnyx 36). */
const storableId = (id: string) => storable(id).slice(0, 256);

/** PostgreSQL's "data exception" class: bad input that no retry can fix. */
const isDataError = (error: unknown) =>
  typeof error === 'object' && error !== null && /^22/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Providers' callbacks: find the gateway, let its adapter verify the call, parse it, and hand the
 * result to whoever registered (the messages module applies reports with the status rank rule, so
 * a repeated or late report changes nothing there).
 */
export function createGatewayWebhooks(service: GatewaysService) {
  const statusHandlers: Array<(event: StatusEvent) => Promise<void>> = [];
  const inboundHandlers: Array<(event: InboundEvent) => Promise<void>> = [];

  return {
    onStatus(handler: (event: StatusEvent) => Promise<void>) {
      statusHandlers.push(handler);
    },
    onInbound(handler: (event: InboundEvent) => Promise<void>) {
      inboundHandlers.push(handler);
    },

    /**
     * `onDropped` hears a verified callback that could not be taken for what it carries (a parse
     * failure, data the database refuses): it is answered 200 all the same, since the provider
     * would only send the same bytes again. A failure of the database itself still answers 500,
     * so the provider retries later.
     */
    async receive(
      gatewayId: number,
      kind: WebhookKind,
      request: WebhookRequest,
      onDropped: (error: unknown) => void = () => {},
    ): Promise<WebhookAnswer> {
      const target = await service.webhookTarget(gatewayId);
      if (!target) throw new AppError('not_found', message('gateway_not_found'));
      const { adapter, teamId } = target;
      const verified = await adapter.verifyWebhook(request, kind);
      if (!verified.ok) {
        // A provider without callbacks (polled ones) has no such URL at all.
        if (verified.reason === 'unsupported' && adapter.capabilities.statusDelivery === 'poll') {
          throw new AppError('not_found', message('gateway_not_found'));
        }
        throw new AppError('forbidden', message('webhook_unverified'));
      }
      const answer = adapter.webhookAnswer?.(kind) ?? { contentType: 'application/json', body: '{"received":true}' };
      // Until the messages module registers, a verified callback has nowhere to go: there are no
      // message rows to move yet. It is answered 200 so the provider does not retry it for days.
      try {
        if (kind === 'status') {
          const row = rowOfCallback(adapter.type, request.url);
          const reports = adapter.parseStatusWebhook(request).map((r) => ({
            ...r,
            providerMessageId: storableId(r.providerMessageId),
            providerStatus: storable(r.providerStatus),
            errorCode: r.errorCode === null ? null : storable(r.errorCode),
            row,
          }));
          if (reports.length > 0) for (const handler of statusHandlers) await handler({ teamId, gatewayId, reports });
        } else {
          const inbound = adapter.parseInbound?.(request) ?? null;
          if (inbound) {
            const clean: TInboundMessage = {
              ...inbound,
              from: storable(inbound.from),
              to: storable(inbound.to),
              text: storable(inbound.text),
              providerMessageId: inbound.providerMessageId === null ? null : storableId(inbound.providerMessageId),
            };
            for (const handler of inboundHandlers) await handler({ teamId, gatewayId, message: clean });
          }
        }
      } catch (error) {
        if (!(error instanceof SyntaxError) && !isDataError(error)) throw error;
        onDropped(error);
      }
      return answer;
    },
  };
}
export type GatewayWebhooks = ReturnType<typeof createGatewayWebhooks>;
