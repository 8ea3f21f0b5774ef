import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createTwilioGateway, deliver } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The words that opt a phone out (issue 32, item 9; decision 025): Twilio's REVOKE and OPTOUT, their
 * usual Ukrainian and Russian forms, and STOP typed in fullwidth letters or with an invisible
 * character inside; a reply that only contains such a word is a reply.
 */
describe.each(databases)('opt-out words on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let gateway: Awaited<ReturnType<typeof createTwilioGateway>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    gateway = await createTwilioGateway(t, owner.token, twilio);
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const optedOut = async (phone: string) =>
    (
      await sql<{
        reason: string;
      }>`select reason from message_opt_outs where team_id = ${owner.user.team_id} and phone = ${phone}`.execute(
        t.app.services.database.db,
      )
    ).rows.map((r) => r.reason);
  const reply = (from: string, text: string) =>
    deliver(t, twilio.inbound(gateway.webhook_urls.inbound as string, from, '+15005550006', text));

  it('REVOKE, OPTOUT, their Ukrainian and Russian forms, fullwidth and zero-width STOP opt out', async () => {
    const words = [
      'REVOKE',
      'optout',
      'Відмова',
      'відкликати',
      'ОТКАЗ',
      'отозвать',
      'ＳＴＯＰ',
      'ST\u200BOP',
      '\uFEFFStop',
    ];
    for (const [i, word] of words.entries()) {
      const phone = `+3806712500${String(i).padStart(2, '0')}`;
      expect((await reply(phone, word)).statusCode).toBe(200);
      expect(await optedOut(phone), word).toEqual(['inbound_stop']);
      const refused = await t.request({
        method: 'POST',
        url: '/api/leads/single-sms',
        token: owner.token,
        payload: { phone, message: 'Hello' },
      });
      expect(refused.statusCode, word).toBe(422);
      expect(refused.json().errors.phone[0].code).toBe('sms_phone_blacklisted');
    }
  });

  it('a reply with an opt-out word inside it is a reply', async () => {
    for (const [i, text] of ['please revoke my order', 'OPTOUT?', 'відмова від доставки'].entries()) {
      const phone = `+3806712501${String(i).padStart(2, '0')}`;
      expect((await reply(phone, text)).statusCode).toBe(200);
      expect(await optedOut(phone), text).toEqual([]);
    }
  });
});
