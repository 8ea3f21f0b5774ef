import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Twilio Lookup v2 (`GET /v2/PhoneNumbers/{phone}?Fields=line_type_intelligence`, Basic auth
 * AccountSid:AuthToken) as a local server for the lookup tests and the benchmark: it answers after
 * `latencyMs`, counts the calls per phone (what a provider would bill), and fails chosen phones
 * with a 500 a set number of times. Answers follow Ukrainian numbering: Kyiv landlines (+38044)
 * are landlines, numbers ending in 0000 are not valid, the rest are Kyivstar mobiles.
 */
export async function startFakeLookup(options: { latencyMs?: number; account?: { sid: string; token: string } } = {}) {
  const account = options.account ?? {
    sid: `AC${randomBytes(16).toString('hex')}`,
    token: randomBytes(16).toString('hex'),
  };
  const auth = `Basic ${Buffer.from(`${account.sid}:${account.token}`).toString('base64')}`;
  const state = {
    latencyMs: options.latencyMs ?? 0,
    /** Calls per phone, answered or not. */
    calls: new Map<string, number>(),
    /** Phone → how many more times to answer 500. */
    failures: new Map<string, number>(),
    /** Every call waits on this when set (a test holds the provider). */
    hold: null as Promise<void> | null,
  };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req: IncomingMessage, res) => {
    for await (const _ of req);
    const match = /^\/v2\/PhoneNumbers\/([^?]+)\?Fields=line_type_intelligence$/.exec(req.url ?? '');
    if (req.headers.authorization !== auth)
      return answer(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    if (req.method !== 'GET' || !match) return answer(res, 404, { code: 20404, message: 'Not found', status: 404 });
    const phone = decodeURIComponent(match[1]);
    state.calls.set(phone, (state.calls.get(phone) ?? 0) + 1);
    if (state.hold) await state.hold;
    if (state.latencyMs > 0) await new Promise((r) => setTimeout(r, state.latencyMs));
    const failing = state.failures.get(phone) ?? 0;
    if (failing > 0) {
      state.failures.set(phone, failing - 1);
      return answer(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
    }
    const landline = phone.startsWith('+38044');
    const valid = !phone.endsWith('0000');
    answer(res, 200, {
      phone_number: phone,
      valid,
      calling_country_code: '380',
      country_code: 'UA',
      line_type_intelligence: valid
        ? {
            carrier_name: landline ? 'Ukrtelecom' : 'Kyivstar',
            mobile_country_code: landline ? null : '255',
            mobile_network_code: landline ? null : '03',
            type: landline ? 'landline' : 'mobile',
            error_code: null,
          }
        : null,
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    account,
    state,
    /** Calls in all. */
    total: () => [...state.calls.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type FakeLookup = Awaited<ReturnType<typeof startFakeLookup>>;

/** The gateway body of a lookup-only Twilio gateway on the fake. */
export function lookupGatewayBody(fake: FakeLookup, over: Record<string, unknown> = {}) {
  return {
    type: 'twilio',
    name: 'Twilio Lookup',
    allow_lookup: true,
    credentials: { sid: fake.account.sid, token: fake.account.token, from_twilio: '+15005550006', base_url: fake.url },
    ...over,
  };
}
