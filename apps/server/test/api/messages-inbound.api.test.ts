import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import twilioLib from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, createTwilioGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Replies as the providers send them (issue 32, item 7; decision 025): a signed reply carrying a NUL
 * byte is stored without it rather than answered 500; a replayed event (the same provider message
 * id) adds nothing the second time, to the Timeline or to the opt-outs.
 */
describe.each(databases)('replies on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let telnyx: Awaited<ReturnType<typeof startFakeTelnyx>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let gateway: Awaited<ReturnType<typeof createTwilioGateway>>;
  beforeAll(async () => {
    [twilio, telnyx] = await Promise.all([startFakeTwilio(), startFakeTelnyx()]);
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    gateway = await createTwilioGateway(t, owner.token, twilio);
  });
  afterAll(async () => {
    await t?.close();
    for (const fake of [twilio, telnyx]) await fake?.close();
  });

  const db = () => t.app.services.database.db;
  async function lead(phone: string) {
    const { source, list } = await sourceWithList(t, owner.token, `S ${phone}`);
    const ids = await attributeIds(t, owner.token);
    return (await createLead(t, owner.token, source.id, list.id, [[ids.phone, phone]])).json().id as number;
  }
  const timeline = async (leadId: number) =>
    (
      (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json().data as Array<{
        action: string;
        diff_log: Array<{ lead_attribute_value: string | null }>;
      }>
    ).filter((e) => e.action === 'sms_received' || e.action === 'sms_opt_out');
  const stored = async (phone: string) =>
    (
      await sql<{ text: string; provider_message_id: string | null; opt_out: boolean }>`
        select text, provider_message_id, opt_out from message_inbound where phone = ${phone} order by id`.execute(db())
    ).rows;
  const inbound = (from: string, text: string) =>
    twilio.inbound(gateway.webhook_urls.inbound as string, from, '+15005550006', text);

  it('a signed reply with a NUL byte is stored without it, answered 200', async () => {
    const phone = '+380671240001';
    const leadId = await lead(phone);
    const call = inbound(phone, 'Hello\u0000 there');
    const res = await deliver(t, call);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    const entries = await timeline(leadId);
    expect(entries.map((e) => [e.action, e.diff_log[0].lead_attribute_value])).toEqual([
      ['sms_received', 'Hello there'],
    ]);
    const sid = new URLSearchParams(call.body).get('MessageSid');
    expect(await stored(phone)).toEqual([{ text: 'Hello there', provider_message_id: sid, opt_out: false }]);
  });

  it('a signed Telnyx reply with a NUL byte in its JSON is taken the same way', async () => {
    const phone = '+380671240002';
    const leadId = await lead(phone);
    const telnyxGateway = await createGateway(t, owner.token, {
      type: 'telnyx',
      name: 'Telnyx',
      credentials: {
        api_key: telnyx.apiKey,
        from_telnyx: '+15550001111',
        public_key: telnyx.publicKey,
        base_url: telnyx.url,
      },
    });
    const res = await deliver(
      t,
      telnyx.received(telnyxGateway.webhook_urls.inbound as string, phone, '+15550001111', 'Hi\u0000!'),
    );
    expect(res.statusCode).toBe(200);
    expect((await timeline(leadId)).map((e) => e.diff_log[0].lead_attribute_value)).toEqual(['Hi!']);
  });

  it('a signed reply whose provider id is too long to index is stored with the id cut, answered 200', async () => {
    const phone = '+380671240005';
    const leadId = await lead(phone);
    const url = gateway.webhook_urls.inbound as string;
    const params = Object.fromEntries(new URLSearchParams(inbound(phone, 'Hi').body));
    // Random, so the database cannot compress it under the index's row limit.
    params.MessageSid = `SM${randomBytes(4_000).toString('hex')}`;
    const res = await deliver(t, {
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioLib.getExpectedTwilioSignature(twilio.account.token, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(await timeline(leadId)).toHaveLength(1);
    expect((await stored(phone))[0].provider_message_id).toHaveLength(256);
  });

  it('a replayed reply (the same provider message id) adds no second Timeline entry', async () => {
    const phone = '+380671240003';
    const leadId = await lead(phone);
    const call = inbound(phone, 'Is it still on sale?');
    expect((await deliver(t, call)).statusCode).toBe(200);
    expect((await deliver(t, call)).statusCode).toBe(200);
    expect(await timeline(leadId)).toHaveLength(1);
    expect(await stored(phone)).toHaveLength(1);
    // Another reply with the same words is another message.
    expect((await deliver(t, inbound(phone, 'Is it still on sale?'))).statusCode).toBe(200);
    expect(await timeline(leadId)).toHaveLength(2);
  });

  it('a replayed STOP opts out once: one Timeline entry, one status change', async () => {
    const phone = '+380671240004';
    const leadId = await lead(phone);
    const call = inbound(phone, 'STOP\u0000');
    expect((await deliver(t, call)).statusCode).toBe(200);
    expect((await deliver(t, call)).statusCode).toBe(200);
    const log = (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json()
      .data as Array<{ action: string }>;
    expect(log.filter((e) => e.action === 'sms_opt_out')).toHaveLength(1);
    expect(log.filter((e) => e.action === 'status_changed')).toHaveLength(1);
    expect((await stored(phone)).map((r) => [r.text, r.opt_out])).toEqual([['STOP', true]]);
    const lead_ = (await t.request({ method: 'GET', url: `/api/leads/${leadId}`, token: owner.token })).json();
    expect(lead_.status).toBe('blacklisted');
  });
});
