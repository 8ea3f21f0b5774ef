import type { TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { AdapterContext, GatewayAdapter } from './gateway-adapter.ts';
import { createAlphaSmsAdapter } from './alphasms.ts';
import { createGenericHttpAdapter } from './generic-http.ts';
import { createSimulatorAdapter, type SimulatorCarrier } from './simulator.ts';
import { createSmsClubAdapter } from './smsclub.ts';
import { createTelnyxAdapter } from './telnyx.ts';
import { createTurboSmsAdapter } from './turbosms.ts';
import { createTwilioAdapter } from './twilio.ts';

/** The providers' own API hosts, used when neither the gateway nor the environment names another. */
export const PROVIDER_BASE_URLS: Record<TGatewayType, string> = {
  simulator: '',
  twilio: 'https://api.twilio.com',
  telnyx: 'https://api.telnyx.com',
  turbosms: 'https://api.turbosms.ua',
  smsclub: 'https://im.smsclub.mobi',
  alphasms: 'https://alphasms.net',
  generic_http: '',
};

export function createAdapterRegistry(carrier: SimulatorCarrier) {
  const factories: Record<TGatewayType, (ctx: AdapterContext) => GatewayAdapter> = {
    simulator: (ctx) => createSimulatorAdapter(ctx, carrier),
    twilio: createTwilioAdapter,
    telnyx: createTelnyxAdapter,
    turbosms: createTurboSmsAdapter,
    smsclub: createSmsClubAdapter,
    alphasms: createAlphaSmsAdapter,
    generic_http: createGenericHttpAdapter,
  };
  return (type: TGatewayType, ctx: AdapterContext): GatewayAdapter => factories[type](ctx);
}
export type AdapterRegistry = ReturnType<typeof createAdapterRegistry>;
