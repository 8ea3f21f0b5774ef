import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { startFakeAlphaSms } from '../support/fake-providers/fake-alphasms.ts';
import { startFakeGeneric } from '../support/fake-providers/fake-generic.ts';
import type { FakeServer, RecordedCall } from '../support/fake-providers/fake-server.ts';
import { startFakeSmsClub } from '../support/fake-providers/fake-smsclub.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { startFakeTurboSms } from '../support/fake-providers/fake-turbosms.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, gatewayHooks } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

interface Provider {
  type: string;
  fake: FakeServer;
  /** The gateway's fields, right or with a wrong secret. */
  credentials(wrongSecret?: boolean): Record<string, string>;
  /** What the provider must have received for the one message sent. */
  expectRequest(call: RecordedCall): void;
}

const TO = '+380501234567';

async function providers(): Promise<Provider[]> {
  const twilio = await startFakeTwilio();
  const telnyx = await startFakeTelnyx();
  const turbo = await startFakeTurboSms();
  const club = await startFakeSmsClub();
  const alpha = await startFakeAlphaSms();
  const generic = await startFakeGeneric();
  return [
    {
      type: 'twilio',
      fake: twilio,
      credentials: (wrong) => ({
        sid: twilio.account.sid,
        token: wrong ? 'nope' : twilio.account.token,
        from_twilio: '+15005550006',
        base_url: twilio.url,
      }),
      expectRequest(call) {
        expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(call.headers['i-twilio-idempotency-token']).toBe('msg-1');
        const form = Object.fromEntries(new URLSearchParams(call.body));
        expect(form).toMatchObject({ To: TO, From: '+15005550006', Body: 'Привіт!' });
        expect(form.StatusCallback).toMatch(/^http:\/\/herald\.test\/api\/webhooks\/gateways\/\d+\/status$/);
      },
    },
    {
      type: 'telnyx',
      fake: telnyx,
      credentials: (wrong) => ({
        api_key: wrong ? 'nope' : telnyx.apiKey,
        from_telnyx: '+15550001111',
        public_key: telnyx.publicKey,
        base_url: telnyx.url,
      }),
      expectRequest(call) {
        expect(JSON.parse(call.body)).toMatchObject({
          to: TO,
          from: '+15550001111',
          text: 'Привіт!',
          webhook_url: expect.stringMatching(/\/status$/),
        });
      },
    },
    {
      type: 'turbosms',
      fake: turbo,
      credentials: (wrong) => ({ access_token: wrong ? 'nope' : turbo.token, from: 'MyShop', base_url: turbo.url }),
      expectRequest(call) {
        expect(JSON.parse(call.body)).toEqual({
          recipients: ['380501234567'],
          sms: { sender: 'MyShop', text: 'Привіт!' },
        });
      },
    },
    {
      type: 'smsclub',
      fake: club,
      credentials: (wrong) => ({ access_token: wrong ? 'nope' : club.token, from: 'MyShop', base_url: club.url }),
      expectRequest(call) {
        expect(JSON.parse(call.body)).toEqual({ phone: ['380501234567'], message: 'Привіт!', src_addr: 'MyShop' });
      },
    },
    {
      type: 'alphasms',
      fake: alpha,
      credentials: (wrong) => ({ api_key: wrong ? 'nope' : alpha.apiKey, from: 'MyShop', base_url: alpha.url }),
      expectRequest(call) {
        const body = JSON.parse(call.body);
        expect(body.auth).toBe(alpha.apiKey);
        expect(body.data[0]).toMatchObject({
          type: 'sms',
          id: 'msg-1',
          phone: '380501234567',
          sms_signature: 'MyShop',
          sms_message: 'Привіт!',
        });
        const hook = new URL(body.data[0].hook);
        expect(hook.searchParams.get('key')).toBe('msg-1');
        expect(hook.searchParams.get('token')).toBeTruthy();
      },
    },
    {
      type: 'generic_http',
      fake: generic,
      credentials: (wrong) => ({
        url: `${generic.url}/send`,
        method: 'POST',
        auth_scheme: 'bearer',
        access_token: wrong ? 'nope' : generic.token,
        from: 'MyShop',
        message_id_path: 'result.message.id',
      }),
      expectRequest(call) {
        const body = JSON.parse(call.body);
        expect(body).toMatchObject({ to: TO, from: 'MyShop', text: 'Привіт!' });
        expect(body.callback).toMatch(/\/status\?token=/);
      },
    },
  ];
}

describe.each(databases)('sending through each provider on %s', (kind) => {
  let t: TestApp;
  let list: Provider[];
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  const hooks = gatewayHooks();
  beforeAll(async () => {
    list = await providers();
    // Short, so "no answer" is decided quickly.
    t = await startTestApp(kind, { GATEWAY_TIMEOUT_MS: '400' }, hooks.options);
    owner = await signupVerified(t);
  });
  afterAll(async () => {
    await t?.close();
    for (const p of list ?? []) await p.fake.close();
  });

  const adapterFor = async (p: Provider, wrongSecret = false) => {
    const gateway = await createGateway(t, owner.token, {
      type: p.type,
      name: p.type,
      credentials: p.credentials(wrongSecret),
    });
    const { adapter } = await hooks.gateways.adapter(owner.user.team_id, gateway.id);
    return Object.assign(adapter, { statusUrl: `http://herald.test/api/webhooks/gateways/${gateway.id}/status` });
  };
  const send = async (p: Provider, wrongSecret = false) => {
    const adapter = await adapterFor(p, wrongSecret);
    return adapter.send({ to: TO, text: 'Привіт!', statusCallbackUrl: adapter.statusUrl, idempotencyKey: 'msg-1' });
  };

  for (const type of ['twilio', 'telnyx', 'turbosms', 'smsclub', 'alphasms', 'generic_http']) {
    describe(type, () => {
      const provider = () => list.find((p) => p.type === type) as Provider;

      it('sends: the provider gets its own protocol and the answer gives the message id', async () => {
        const p = provider();
        p.fake.mode = 'ok';
        const before = p.fake.calls.length;
        const result = await send(p);
        expect(result.providerMessageId).toMatch(/\S/);
        expect(result.status).toBe('queued');
        expect(p.fake.calls.length).toBe(before + 1);
        p.expectRequest(p.fake.calls.at(-1) as RecordedCall);
      });

      it('refused credentials are a permanent auth failure', async () => {
        const p = provider();
        p.fake.mode = 'ok';
        await expect(send(p, true)).rejects.toMatchObject({ kind: 'permanent', reason: 'auth' });
      });

      it('a refused request is permanent', async () => {
        const p = provider();
        p.fake.mode = 'reject';
        await expect(send(p)).rejects.toMatchObject({ kind: 'permanent', reason: 'rejected' });
      });

      it("the provider's own failure is retryable", async () => {
        const p = provider();
        p.fake.mode = 'server_error';
        await expect(send(p)).rejects.toMatchObject({ kind: 'retryable', reason: 'provider_error' });
      });

      it('no answer in time is an unknown outcome, never a plain failure', async () => {
        const p = provider();
        p.fake.mode = 'timeout';
        await expect(send(p)).rejects.toMatchObject({ kind: 'unknown_outcome', reason: 'timeout' });
        p.fake.mode = 'ok';
      });
    });
  }

  it('looks up a carrier through Twilio, Telnyx and the simulator', async () => {
    const lookups: Array<[string, string | null, string | null]> = [];
    for (const type of ['twilio', 'telnyx'] as const) {
      const adapter = await adapterFor(list.find((x) => x.type === type) as Provider);
      const found = await adapter.lookup?.(TO);
      lookups.push([type, found?.carrierName ?? null, found?.carrierType ?? null]);
    }
    const gateway = await createGateway(t, owner.token, { type: 'simulator', name: 'Sim', allow_lookup: true });
    const { adapter } = await hooks.gateways.adapter(owner.user.team_id, gateway.id);
    for (const phone of ['+380671234567', '+380931234567', '+14155550100']) {
      const found = await adapter.lookup?.(phone);
      lookups.push([phone, found?.carrierName ?? null, found?.carrierType ?? null]);
    }
    expect(lookups).toEqual([
      ['twilio', 'Kyivstar', 'mobile'],
      ['telnyx', 'Vodafone Ukraine', 'mobile'],
      ['+380671234567', 'Kyivstar', 'mobile'],
      ['+380931234567', 'lifecell', 'mobile'],
      // A number outside Ukraine: the simulator knows no carrier, and says so as the line type 'other'.
      ['+14155550100', null, 'other'],
    ]);
  });

  it('polls TurboSMS and SMS Club for statuses, mapped onto ours', async () => {
    for (const [type, delivered] of [
      ['turbosms', 'Delivered'],
      ['smsclub', 'DELIVRD'],
    ] as const) {
      const p = list.find((x) => x.type === type) as Provider;
      p.fake.mode = 'ok';
      const sent = await send(p);
      const adapter = await adapterFor(p);
      expect(adapter.capabilities.statusDelivery).toBe('poll');
      const statuses = (p.fake as unknown as { statuses: Map<string, string> }).statuses;
      statuses.set(sent.providerMessageId, delivered);
      const reports = await adapter.pollStatuses?.([sent.providerMessageId, 'unknown-id']);
      expect(reports?.map((r) => [r.providerMessageId, r.status, r.providerStatus])).toEqual([
        [sent.providerMessageId, 'delivered', delivered],
      ]);
    }
  });
});
