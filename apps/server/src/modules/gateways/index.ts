import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TGatewayType } from '@herald/shared/gateways/gateway-types';
import { createCredentialCipher } from '../../crypto/credentials.ts';
import type { DB } from '../../db/schema.ts';
import { createAdapterRegistry } from './adapters/registry.ts';
import { createSimulatorCarrier } from './adapters/simulator.ts';
import { createGatewayWebhooks } from './gateway-webhooks.ts';
import { createGatewaysRepository } from './gateways.repository.ts';
import { gatewaysRoutes } from './gateways.routes.ts';
import { createGatewaysService } from './gateways.service.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

export interface GatewaysModuleDeps {
  db: Kysely<DB>;
  /** HERALD_SECRET_KEY: seals credentials. */
  secretKey: string;
  /** APP_URL: the origin providers call back. */
  appUrl: string;
  baseUrls?: Partial<Record<TGatewayType, string>>;
  /** One provider call's limit before its outcome counts as unknown (default 10 s). */
  timeoutMs?: number;
}

/**
 * Wires SMS gateways: settings (repository → service → routes), the adapters, and the providers'
 * callbacks. Offers the sending side `adapter(teamId, id)` and the hooks `onStatus`/`onInbound`.
 */
export function createGatewaysModule(deps: GatewaysModuleDeps) {
  const carrier = createSimulatorCarrier();
  const service = createGatewaysService({
    repo: createGatewaysRepository(deps.db),
    cipher: createCredentialCipher(deps.secretKey),
    registry: createAdapterRegistry(carrier),
    appUrl: deps.appUrl,
    baseUrls: deps.baseUrls ?? {},
    timeoutMs: deps.timeoutMs ?? 10_000,
  });
  const webhooks = createGatewayWebhooks(service);
  return {
    service,
    adapter: service.adapter,
    onStatus: webhooks.onStatus,
    onInbound: webhooks.onInbound,
    routes: async (app: FastifyInstance) => {
      await app.register((scope) => gatewaysRoutes(scope, { gateways: service }));
      await app.register((scope) => webhooksRoutes(scope, { webhooks, appUrl: deps.appUrl }));
    },
    stop: () => carrier.stop(),
  };
}
