import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { startFakeAlphaSms } from '../support/fake-providers/fake-alphasms.ts';
import type { SignedCallback } from '../support/fake-providers/fake-server.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { createGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The status rank rule through each provider's own callbacks (Twilio's are in messages.api):
 * reports in order move a message forwards, a late one never moves it back, a repeated one
 * changes nothing, also when they all arrive at once and are written together.
 */
describe.each(databases)('delivery reports in and out of order on %s', (kind) => {
  let t: TestApp;
  let telnyx: Awaited<ReturnType<typeof startFakeTelnyx>>;
  let alpha: Awaited<ReturnType<typeof startFakeAlphaSms>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let phone = 380671230000;
  beforeAll(async () => {
    [telnyx, alpha] = await Promise.all([startFakeTelnyx(), startFakeAlphaSms()]);
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '10.00');
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of [telnyx, alpha]) await fake?.close();
  });

  type Report = (id: string, status: 'sent' | 'delivered' | 'failed') => SignedCallback;
  const providers: Array<{ name: string; gateway: () => Record<string, unknown>; report: Report }> = [
    {
      name: 'Telnyx',
      gateway: () => ({
        type: 'telnyx',
        name: 'Telnyx',
        credentials: {
          api_key: telnyx.apiKey,
          from_telnyx: '+15550001111',
          messaging_profile_id: 'profile-a',
          public_key: telnyx.publicKey,
          base_url: telnyx.url,
        },
      }),
      report: (id, status) =>
        status === 'sent'
          ? telnyx.event(id, 'message.sent', 'sent')
          : telnyx.event(id, 'message.finalized', status === 'failed' ? 'delivery_failed' : 'delivered'),
    },
    {
      name: 'AlphaSMS',
      gateway: () => ({
        type: 'alphasms',
        name: 'AlphaSMS',
        credentials: { api_key: alpha.apiKey, from: 'MyShop', base_url: alpha.url },
      }),
      report: (id, status) => alpha.hookCall(id, status),
    },
  ];

  /** A lead and one single SMS to it through the gateway: the message id, provider id and lead. */
  async function sent(gatewayId: number) {
    const ids = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token, `S ${Math.random()}`);
    const lead = await createLead(t, owner.token, source.id, list.id, [[ids.phone, `+${phone++}`]]);
    const leadId = lead.json().id as number;
    const res = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { lead_id: leadId, message: 'Hi', gateway_id: gatewayId },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { id: number; provider_message_id: string };
    return { messageId: data.id, providerId: data.provider_message_id, leadId };
  }
  const statusOf = async (id: number) =>
    (await t.app.services.database.db.selectFrom('messages').select('status').where('id', '=', id).executeTakeFirst())
      ?.status;
  const moves = async (leadId: number) =>
    (
      (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json().data as Array<{
        action: string;
      }>
    )
      .map((e) => e.action)
      .filter((a) => a.startsWith('sms_status_'))
      .reverse();

  for (const provider of providers) {
    it(`${provider.name}: in order, out of order, repeated, and all at once; never backwards, never twice`, async () => {
      const gateway = await createGateway(t, owner.token, provider.gateway());
      const post = async (id: string, status: 'sent' | 'delivered' | 'failed') =>
        expect((await deliver(t, provider.report(id, status))).statusCode).toBe(200);

      // In order, then repeated.
      const a = await sent(gateway.id);
      await post(a.providerId, 'sent');
      expect(await statusOf(a.messageId)).toBe('sent');
      await post(a.providerId, 'delivered');
      await post(a.providerId, 'delivered');
      await post(a.providerId, 'sent');
      expect(await statusOf(a.messageId)).toBe('delivered');
      expect(await moves(a.leadId)).toEqual(['sms_status_queued', 'sms_status_sent', 'sms_status_delivered']);

      // Out of order: the final report first; the late `sent` and a contradicting `failed` change nothing.
      const b = await sent(gateway.id);
      await post(b.providerId, 'delivered');
      await post(b.providerId, 'sent');
      await post(b.providerId, 'failed');
      expect(await statusOf(b.messageId)).toBe('delivered');
      expect(await moves(b.leadId)).toEqual(['sms_status_queued', 'sms_status_delivered']);

      // All at once (written together): the same outcome whatever the order they are taken in.
      const c = await sent(gateway.id);
      await Promise.all(['delivered', 'sent', 'delivered', 'sent'].map((s) => post(c.providerId, s as 'sent')));
      expect(await statusOf(c.messageId)).toBe('delivered');
      const burst = await moves(c.leadId);
      expect(burst.filter((m) => m === 'sms_status_delivered')).toHaveLength(1);
      expect(burst.at(-1)).toBe('sms_status_delivered');
    });
  }
});
