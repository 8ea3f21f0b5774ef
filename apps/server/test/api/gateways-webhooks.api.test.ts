import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialCipher } from '../../src/crypto/credentials.ts';
import { simulatorSignature } from '../../src/modules/gateways/adapters/simulator.ts';
import { signupVerified } from '../support/accounts.ts';
import { startFakeAlphaSms } from '../support/fake-providers/fake-alphasms.ts';
import { startFakeGeneric } from '../support/fake-providers/fake-generic.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, deliver, freePort, gatewayHooks } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const TO = '+380501234567';

describe.each(databases)('provider callbacks on %s', (kind) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let telnyx: Awaited<ReturnType<typeof startFakeTelnyx>>;
  let alpha: Awaited<ReturnType<typeof startFakeAlphaSms>>;
  let generic: Awaited<ReturnType<typeof startFakeGeneric>>;
  const hooks = gatewayHooks();
  beforeAll(async () => {
    [twilio, telnyx, alpha, generic] = await Promise.all([
      startFakeTwilio(),
      startFakeTelnyx(),
      startFakeAlphaSms(),
      startFakeGeneric(),
    ]);
    t = await startTestApp(kind, {}, hooks.options);
    owner = await signupVerified(t);
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of [twilio, telnyx, alpha, generic]) await fake?.close();
  });

  /** A gateway of `type` and one message sent through it to its fake. */
  async function sentThrough(type: string, credentials: Record<string, string>) {
    const gateway = await createGateway(t, owner.token, { type, name: type, credentials });
    const { adapter } = await hooks.gateways.adapter(owner.user.team_id, gateway.id);
    const statusUrl = `http://herald.test/api/webhooks/gateways/${gateway.id}/status`;
    const sent = await adapter.send({
      to: TO,
      text: 'Hi',
      statusCallbackUrl: statusUrl,
      idempotencyKey: `k-${gateway.id}`,
    });
    return { gateway, sent };
  }
  const reportsOf = (gatewayId: number) =>
    hooks.seen.statuses.filter((e) => e.gatewayId === gatewayId).flatMap((e) => e.reports);

  it('Twilio: a signed report reaches the hook (twice, harmlessly); forged or foreign ones get 403', async () => {
    const { gateway, sent } = await sentThrough('twilio', {
      sid: twilio.account.sid,
      token: twilio.account.token,
      from_twilio: '+15005550006',
      base_url: twilio.url,
    });
    const delivered = twilio.statusCallback(sent.providerMessageId, 'undelivered', { ErrorCode: '30007' });
    expect((await deliver(t, delivered)).statusCode).toBe(200);
    expect((await deliver(t, delivered)).statusCode).toBe(200);
    expect(reportsOf(gateway.id).map((r) => [r.providerMessageId, r.status, r.errorCode])).toEqual([
      [sent.providerMessageId, 'blocked_by_carrier', '30007'],
      [sent.providerMessageId, 'blocked_by_carrier', '30007'],
    ]);

    const forged = twilio.statusCallback(sent.providerMessageId, 'delivered', {}, 'not-the-token');
    const res = await deliver(t, forged);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', detail: { code: 'webhook_unverified' } });
    const tampered = twilio.statusCallback(sent.providerMessageId, 'sent');
    expect((await deliver(t, { ...tampered, body: tampered.body.replace('sent', 'delivered') })).statusCode).toBe(403);
    const foreign = twilio.statusCallback(sent.providerMessageId, 'delivered', {
      AccountSid: 'AC00000000000000000000000000000000',
    });
    expect((await deliver(t, foreign)).statusCode).toBe(403);
    expect(reportsOf(gateway.id)).toHaveLength(2);

    const reply = await deliver(t, twilio.inbound(gateway.webhook_urls.inbound as string, TO, '+15005550006', 'STOP'));
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/xml');
    expect(
      hooks.seen.inbound.filter((e) => e.gatewayId === gateway.id).map((e) => [e.message.from, e.message.text]),
    ).toEqual([[TO, 'STOP']]);
  });

  it('Telnyx: a fresh Ed25519-signed event is taken; a stale, forged or other-profile one gets 403', async () => {
    const { gateway, sent } = await sentThrough('telnyx', {
      api_key: telnyx.apiKey,
      from_telnyx: '+15550001111',
      messaging_profile_id: 'profile-a',
      public_key: telnyx.publicKey,
      base_url: telnyx.url,
    });
    const id = sent.providerMessageId;
    expect((await deliver(t, telnyx.event(id, 'message.sent', 'sent'))).statusCode).toBe(200);
    expect(
      (await deliver(t, telnyx.event(id, 'message.finalized', 'delivery_failed', { errorCode: '40006' }))).statusCode,
    ).toBe(200);
    expect(reportsOf(gateway.id).map((r) => r.status)).toEqual(['sent', 'inactive_device']);

    const stale = telnyx.event(id, 'message.finalized', 'delivered', {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await deliver(t, stale)).statusCode).toBe(403);
    expect((await deliver(t, telnyx.event(id, 'message.finalized', 'delivered', { forgeKey: true }))).statusCode).toBe(
      403,
    );
    expect(
      (await deliver(t, telnyx.event(id, 'message.finalized', 'delivered', { profile: 'profile-b' }))).statusCode,
    ).toBe(403);
    expect(reportsOf(gateway.id)).toHaveLength(2);
  });

  it('AlphaSMS: the hook with our token is taken; a guessed one gets 403', async () => {
    const { gateway, sent } = await sentThrough('alphasms', {
      api_key: alpha.apiKey,
      from: 'MyShop',
      base_url: alpha.url,
    });
    const hook = alpha.hookCall(sent.providerMessageId, 'delivered');
    expect((await deliver(t, hook)).statusCode).toBe(200);
    expect(reportsOf(gateway.id).map((r) => [r.providerMessageId, r.status])).toEqual([
      [sent.providerMessageId, 'delivered'],
    ]);
    const guessed = new URL(hook.url);
    guessed.searchParams.set('token', 'x'.repeat(43));
    expect((await deliver(t, { ...hook, url: guessed.toString() })).statusCode).toBe(403);
    expect(reportsOf(gateway.id)).toHaveLength(1);
  });

  it('generic HTTP: reports read by the configured paths and status table; no token, 403', async () => {
    const { gateway, sent } = await sentThrough('generic_http', {
      url: `${generic.url}/send`,
      auth_scheme: 'bearer',
      access_token: generic.token,
      message_id_path: 'result.message.id',
      status_id_path: 'msg.ref',
      status_value_path: 'msg.state',
      status_map: 'DLVRD=delivered\nREJ=blocked_by_carrier',
    });
    const report = generic.report(sent.providerMessageId, 'DLVRD');
    expect(report.url).toBe(gateway.webhook_urls.status);
    expect((await deliver(t, report)).statusCode).toBe(200);
    expect(reportsOf(gateway.id).map((r) => [r.providerMessageId, r.status])).toEqual([
      [sent.providerMessageId, 'delivered'],
    ]);
    expect((await deliver(t, { ...report, url: report.url.split('?')[0] })).statusCode).toBe(403);
  });

  it('polled providers and unknown gateways have no callback URL', async () => {
    const turbo = await createGateway(t, owner.token, {
      type: 'turbosms',
      name: 'T',
      credentials: { access_token: 'x', from: 'Shop' },
    });
    expect(turbo.webhook_urls).toEqual({ status: null, inbound: null });
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/gateways/${turbo.id}/status`, payload: '{}' });
    expect(res.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/webhooks/gateways/999999/status', payload: '{}' })).statusCode,
    ).toBe(404);
  });
});

describe.each(databases)('the simulator, calling the app back on %s', (kind) => {
  let t: TestApp;
  let appUrl: string;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  const hooks = gatewayHooks();
  beforeAll(async () => {
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    t = await startTestApp(kind, { APP_URL: appUrl }, hooks.options);
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await signupVerified(t);
  });
  afterAll(() => t?.close());

  const simulator = (rates: Record<string, string>) =>
    createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim',
      credentials: {
        from: 'Herald',
        latency_ms: '100',
        delivery_rate: '0',
        failure_rate: '0',
        block_rate: '0',
        ...rates,
      },
    });

  it('passes "test connection" by reaching the app with a signed ping', async () => {
    const gateway = await simulator({ delivery_rate: '100' });
    const res = await t.request({
      method: 'POST',
      url: `/api/config/gateway/messaging/${gateway.id}/test`,
      token: owner.token,
    });
    expect(res.json()).toMatchObject({ ok: true, code: 'gateway_connected' });
  });

  it.each([
    ['delivery_rate', 'delivered'],
    ['failure_rate', 'failed'],
    ['block_rate', 'blocked_by_carrier'],
  ])('with %s 100 reports sent, then %s, through the signed webhook', async (rate, final) => {
    const gateway = await simulator({ [rate]: '100', reply_text: 'STOP' });
    const { adapter } = await hooks.gateways.adapter(owner.user.team_id, gateway.id);
    const sent = await adapter.send({
      to: TO,
      text: 'Hi',
      statusCallbackUrl: gateway.webhook_urls.status as string,
      idempotencyKey: 'k',
    });
    const statuses = () =>
      hooks.seen.statuses
        .filter((e) => e.gatewayId === gateway.id)
        .flatMap((e) => e.reports.map((r) => [r.providerMessageId, r.status]));
    await waitUntil(`the ${final} report`, () => statuses().length === 2);
    expect(statuses().sort((a) => (a[1] === 'sent' ? -1 : 1))).toEqual([
      [sent.providerMessageId, 'sent'],
      [sent.providerMessageId, final],
    ]);
    if (final === 'delivered') {
      await waitUntil('the reply', () => hooks.seen.inbound.some((e) => e.gatewayId === gateway.id));
      expect(hooks.seen.inbound.find((e) => e.gatewayId === gateway.id)?.message).toMatchObject({
        from: TO,
        to: 'Herald',
        text: 'STOP',
      });
    }
  });

  it('refuses a carrier-invalid number, and forged, stale or cross-gateway reports', async () => {
    const gateway = await simulator({ delivery_rate: '100' });
    const { adapter } = await hooks.gateways.adapter(owner.user.team_id, gateway.id);
    await expect(
      adapter.send({ to: '12345', text: 'x', statusCallbackUrl: '', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ kind: 'permanent', reason: 'rejected' });

    const db = t.app.services.database.db;
    const sealed = await db
      .selectFrom('gateways')
      .select('credentials')
      .where('id', '=', gateway.id)
      .executeTakeFirstOrThrow();
    const secret = createCredentialCipher(t.app.services.config.HERALD_SECRET_KEY).decrypt(
      sealed.credentials,
    ).webhook_secret;
    const post = (body: object, { ts = Math.floor(Date.now() / 1000), key = secret } = {}) => {
      const raw = JSON.stringify(body);
      return t.app.inject({
        method: 'POST',
        url: `/api/webhooks/gateways/${gateway.id}/status`,
        headers: {
          'content-type': 'application/json',
          'x-simulator-timestamp': String(ts),
          'x-simulator-signature': simulatorSignature(key, String(ts), raw),
        },
        payload: raw,
      });
    };
    const report = { gateway_id: gateway.id, event: 'status', message_id: 'SIMx', status: 'delivered' };
    expect((await post(report)).statusCode).toBe(200);
    expect((await post(report, { key: 'guess' })).statusCode).toBe(403);
    expect((await post(report, { ts: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(403);
    expect((await post({ ...report, gateway_id: gateway.id + 1 })).statusCode).toBe(403);
    expect(
      hooks.seen.statuses
        .filter((e) => e.gatewayId === gateway.id)
        .flatMap((e) => e.reports.map((r) => r.providerMessageId)),
    ).toEqual(['SIMx']);
  });
});
