import type { TInboundMessage, TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import { message } from '@herald/shared/common/messages';
import { AppError } from '../../http/app-error.ts';
import type { WebhookAnswer, WebhookKind, WebhookRequest } from './adapters/gateway-adapter.ts';
import type { GatewaysService } from './gateways.service.ts';

export interface StatusEvent {
  teamId: number;
  gatewayId: number;
  reports: TStatusReport[];
}
export interface InboundEvent {
  teamId: number;
  gatewayId: number;
  message: TInboundMessage;
}

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

    async receive(gatewayId: number, kind: WebhookKind, request: WebhookRequest): Promise<WebhookAnswer> {
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
      // Until the messages module registers, a verified callback has nowhere to go: there are no
      // message rows to move yet. It is answered 200 so the provider does not retry it for days.
      if (kind === 'status') {
        const reports = adapter.parseStatusWebhook(request);
        if (reports.length > 0) for (const handler of statusHandlers) await handler({ teamId, gatewayId, reports });
      } else {
        const inbound = adapter.parseInbound?.(request) ?? null;
        if (inbound) for (const handler of inboundHandlers) await handler({ teamId, gatewayId, message: inbound });
      }
      return adapter.webhookAnswer?.(kind) ?? { contentType: 'application/json', body: '{"received":true}' };
    },
  };
}
export type GatewayWebhooks = ReturnType<typeof createGatewayWebhooks>;
