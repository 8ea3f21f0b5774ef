import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { startFakeAlphaSms } from '../support/fake-providers/fake-alphasms.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { createGateway, deliver } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * What an outside probe found on the callbacks' side (issue 32, items 6 and 10; decision 025): an
 * AlphaSMS hook token moves only the message it was made for; a Telnyx key that cannot verify
 * anything is refused when the gateway is saved, not discovered as a 403 on every callback.
 */
describe.each(databases)('gateway callbacks, hardened, on %s', (kind) => {
  let t: TestApp;
  let alpha: Awaited<ReturnType<typeof startFakeAlphaSms>>;
  let telnyx: Awaited<ReturnType<typeof startFakeTelnyx>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  beforeAll(async () => {
    [alpha, telnyx] = await Promise.all([startFakeAlphaSms(), startFakeTelnyx()]);
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '10.00');
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of [alpha, telnyx]) await fake?.close();
  });

  const status = async (id: number) =>
    (
      await sql<{ status: string | null }>`select status from messages where id = ${id}`.execute(
        t.app.services.database.db,
      )
    ).rows[0].status;
  const send = async (gatewayId: number, phone: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { phone, message: 'Hello', gateway_id: gatewayId },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { id: number; provider_message_id: string };
  };

  it("AlphaSMS: a message's hook token replayed with another message's id changes nothing", async () => {
    const gateway = await createGateway(t, owner.token, {
      type: 'alphasms',
      name: 'AlphaSMS',
      credentials: { api_key: alpha.apiKey, from: 'MyShop', base_url: alpha.url },
    });
    const first = await send(gateway.id, '+380671230101');
    const second = await send(gateway.id, '+380671230102');
    // The first message's hook URL (its key and token), the second message's id in the body.
    const replayed = alpha.hookCall(second.provider_message_id, 'failed');
    const firstHook = alpha.hookCall(first.provider_message_id, 'failed');
    const res = await deliver(t, { ...replayed, url: firstHook.url });
    expect(res.statusCode).toBe(200);
    expect(await status(second.id)).toBe('queued');
    expect(await status(first.id)).toBe('queued');
    // Each hook still moves its own message.
    expect((await deliver(t, alpha.hookCall(second.provider_message_id, 'delivered'))).statusCode).toBe(200);
    expect(await status(second.id)).toBe('delivered');
    expect((await deliver(t, firstHook)).statusCode).toBe(200);
    expect(await status(first.id)).toBe('failed');
  });

  it('Telnyx: a public key that is not an Ed25519 key is refused on save, in the field, translated', async () => {
    const body = (publicKey: string) => ({
      type: 'telnyx',
      name: 'Telnyx',
      credentials: {
        api_key: telnyx.apiKey,
        from_telnyx: '+15550001111',
        public_key: publicKey,
        base_url: telnyx.url,
      },
    });
    const before = (
      await t.request({ method: 'GET', url: '/api/config/gateway/messaging', token: owner.token })
    ).json();
    for (const wrong of ['not-a-key', Buffer.alloc(16, 1).toString('base64'), `${telnyx.publicKey}AAAA`]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/config/gateway/messaging',
        token: owner.token,
        payload: body(wrong),
      });
      expect(res.statusCode, wrong).toBe(422);
      expect(res.json().errors['credentials.public_key'][0]).toMatchObject({
        code: 'gateway_public_key_invalid',
        params: { field: 'Webhook public key' },
      });
    }
    const after = (await t.request({ method: 'GET', url: '/api/config/gateway/messaging', token: owner.token })).json();
    expect(after).toEqual(before);

    const saved = await createGateway(t, owner.token, body(telnyx.publicKey));
    const edit = await t.request({
      method: 'PUT',
      url: `/api/config/gateway/messaging/${saved.id}`,
      token: owner.token,
      payload: body('AAAA'),
    });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors['credentials.public_key'][0].code).toBe('gateway_public_key_invalid');
  });
});
