import { createServer } from 'node:net';
import type { BuildOptions } from '../../src/app.ts';
import { simulateLookup } from '../../src/modules/gateways/adapters/simulator-lookup.ts';
import type { SignedCallback } from './fake-providers/fake-server.ts';
import type { TestApp } from './test-app.ts';

type GatewaysOffer = Parameters<NonNullable<BuildOptions['onGateways']>>[0];
type StatusEvent = Parameters<Parameters<GatewaysOffer['onStatus']>[0]>[0];
type InboundEvent = Parameters<Parameters<GatewaysOffer['onInbound']>[0]>[0];

/**
 * Build options that catch the gateways' offer as the messages module will, and what reaches its
 * hooks: every verified status report and reply.
 */
export function gatewayHooks() {
  const seen = {
    statuses: [] as StatusEvent[],
    inbound: [] as InboundEvent[],
    gateways: undefined as GatewaysOffer | undefined,
  };
  const options: BuildOptions = {
    onGateways(gateways) {
      seen.gateways = gateways;
      gateways.onStatus(async (event) => {
        seen.statuses.push(event);
      });
      gateways.onInbound(async (event) => {
        seen.inbound.push(event);
      });
    },
  };
  return {
    options,
    seen,
    get gateways(): GatewaysOffer {
      if (!seen.gateways) throw new Error('the app has not been built');
      return seen.gateways;
    },
  };
}

export async function createGateway(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/config/gateway/messaging', token, payload: body });
  if (res.statusCode !== 201) throw new Error(`gateway not created: ${res.body}`);
  return res.json() as { id: number; webhook_urls: { status: string | null; inbound: string | null } };
}

/** The body that makes a Twilio gateway named Twilio on the fake Twilio at `twilio.url`, sending from its magic test number. */
export function twilioGatewayBody(
  twilio: { url: string; account: { sid: string; token: string } },
  over: Record<string, unknown> = {},
) {
  return {
    type: 'twilio',
    name: 'Twilio',
    credentials: {
      sid: twilio.account.sid,
      token: twilio.account.token,
      from_twilio: '+15005550006',
      base_url: twilio.url,
    },
    ...over,
  };
}

/** A Twilio gateway made from `twilioGatewayBody`. */
export function createTwilioGateway(
  t: TestApp,
  token: string,
  twilio: { url: string; account: { sid: string; token: string } },
) {
  return createGateway(t, token, twilioGatewayBody(twilio));
}

/** Delivers a provider's callback to the app as the provider would, through `inject`. */
export function deliver(t: TestApp, callback: SignedCallback) {
  const url = new URL(callback.url);
  return t.app.inject({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: callback.headers,
    payload: callback.body,
  });
}

/** A port nobody listens on yet, for an app that must be reachable at its APP_URL. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Phones the simulator's carrier database answers for as asked: a valid mobile, or an unassigned one. */
export function simulatorPhones(n: number, want: 'mobile' | 'invalid', from: number): string[] {
  const found: string[] = [];
  for (let i = from; found.length < n; i++) {
    const phone = `+38067${String(i).padStart(7, '0')}`;
    const r = simulateLookup(phone);
    if (want === 'mobile' ? r.valid && r.carrier_type === 'mobile' : !r.valid) found.push(phone);
  }
  return found;
}
