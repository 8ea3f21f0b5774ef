import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createTwilioGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/**
 * Both ways a recipient says no (an unsubscribe link, an inbound STOP) opt the phone out for the
 * team, also when no lead holds it (a single SMS typed to a number): every later send is refused.
 */
describe.each(databases)('opting out of SMS on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const db = () => t.app.services.database.db;

  async function team() {
    const owner = await signupVerified(t);
    const gateway = await createTwilioGateway(t, owner.token, twilio);
    await topUpThroughSandbox(t, owner.token, '10.00');
    return { owner, gateway };
  }

  const send = (token: string, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/leads/single-sms', token, payload });
  const optOuts = async (teamId: number) =>
    (
      await sql<{ phone: string; reason: string; gateway_id: number | null }>`
        select phone, reason, gateway_id from message_opt_outs where team_id = ${teamId} order by phone`.execute(db())
    ).rows.map((r) => ({ ...r, gateway_id: r.gateway_id === null ? null : Number(r.gateway_id) }));
  /** The recipient opens the message's unsubscribe link and confirms the page, on the link's host. */
  async function unsubscribe(messageId: number) {
    const link = await db()
      .selectFrom('short_links')
      .select(['host', 'code'])
      .where('message_id', '=', messageId)
      .where('kind', '=', 'unsubscribe')
      .executeTakeFirstOrThrow();
    const headers = { host: link.host, 'user-agent': BROWSER };
    const page = await t.request({ method: 'GET', url: `/${link.code}`, headers });
    expect(page.statusCode).toBe(200);
    const done = await t.request({ method: 'POST', url: `/${link.code}`, headers });
    expect(done.statusCode).toBe(200);
  }
  async function expectRefused(token: string, phone: string) {
    const before = twilio.calls.length;
    const refused = await send(token, { phone, message: 'Again' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.phone[0].code).toBe('sms_phone_blacklisted');
    expect(twilio.calls.length).toBe(before);
  }

  it('the unsubscribe link of a single SMS to a typed phone no lead holds: later sends are refused', async () => {
    const { owner, gateway } = await team();
    const other = await team();
    const phone = '+380631234501';
    const first = await send(owner.token, { phone, message: 'Sale today. Stop: {{unsubscribe}}' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.lead_id).toBeNull();

    await unsubscribe(first.json().data.id);
    expect(await optOuts(owner.user.team_id)).toEqual([{ phone, reason: 'unsubscribe_link', gateway_id: gateway.id }]);
    await expectRefused(owner.token, phone);
    // Only this team: another team still reaches the phone.
    expect((await send(other.owner.token, { phone, message: 'Hello' })).statusCode).toBe(200);
    expect(await optOuts(other.owner.user.team_id)).toEqual([]);
  });

  it('the unsubscribe link where a lead holds the phone: opted out, value banned, lead blacklisted, in its Timeline', async () => {
    const { owner } = await team();
    const phone = '+380631234502';
    const attrs = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token);
    const leadId = (await createLead(t, owner.token, source.id, list.id, [[attrs.phone, phone]])).json().id as number;
    const first = await send(owner.token, { lead_id: leadId, message: 'Stop: {{unsubscribe}}' });
    expect(first.statusCode).toBe(200);

    await unsubscribe(first.json().data.id);
    expect((await optOuts(owner.user.team_id)).map((o) => [o.phone, o.reason])).toEqual([[phone, 'unsubscribe_link']]);
    const lead = (await t.request({ method: 'GET', url: `/api/leads/${leadId}`, token: owner.token })).json();
    expect(lead.status).toBe('blacklisted');
    expect(lead.lead_values.find((v: { value: string }) => v.value === phone).ban).toBe(true);
    const log = (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json();
    expect(log.data.map((e: { action: string }) => e.action)).toContain('unsubscribed');
    await expectRefused(owner.token, phone);
    const byLead = await send(owner.token, { lead_id: leadId, message: 'Again' });
    expect(byLead.statusCode).toBe(422);
  });

  it('an inbound STOP from a typed phone no lead holds: later sends are refused the same way', async () => {
    const { owner, gateway } = await team();
    const phone = '+380631234503';
    expect((await send(owner.token, { phone, message: 'Sale today' })).statusCode).toBe(200);
    const stop = await deliver(
      t,
      twilio.inbound(gateway.webhook_urls.inbound as string, phone, '+15005550006', 'STOP'),
    );
    expect(stop.statusCode).toBe(200);
    expect(await optOuts(owner.user.team_id)).toEqual([{ phone, reason: 'inbound_stop', gateway_id: gateway.id }]);
    await expectRefused(owner.token, phone);
  });
});
