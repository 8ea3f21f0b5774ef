import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { startFakeTurboSms } from '../support/fake-providers/fake-turbosms.ts';
import { createGateway, freePort } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Reports arriving by themselves: the simulator calls the listening app back (sent, then the final
 * status, then a reply), and TurboSMS, which has no callbacks, is polled by the job until final.
 */
describe.each(databases)('message statuses arriving on %s', (kind) => {
  let t: TestApp;
  let turbo: Awaited<ReturnType<typeof startFakeTurboSms>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  beforeAll(async () => {
    turbo = await startFakeTurboSms();
    const port = await freePort();
    t = await startTestApp(kind, { APP_URL: `http://127.0.0.1:${port}` }, { messagePollSeconds: 1 });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await signupVerified(t);
  });
  afterAll(async () => {
    await t?.close();
    await turbo?.close();
  });

  const db = () => t.app.services.database.db;
  const message = async (id: number) =>
    (
      await sql<{ state: string; status: string | null }>`select state, status from messages where id = ${id}`.execute(
        db(),
      )
    ).rows[0];
  const lead = async (phone: string) => {
    const { source, list } = await sourceWithList(t, owner.token, `S ${Math.random()}`);
    const ids = await attributeIds(t, owner.token);
    return (await createLead(t, owner.token, source.id, list.id, [[ids.phone, phone]])).json().id as number;
  };
  const actions = async (leadId: number) =>
    (
      (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json().data as Array<{
        action: string;
      }>
    ).map((e) => e.action);

  it('the simulator delivers: sent then delivered on the row and the Timeline; its STOP reply blacklists the lead', async () => {
    const gateway = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim',
      credentials: {
        from: 'Herald',
        latency_ms: '200',
        delivery_rate: '100',
        failure_rate: '0',
        block_rate: '0',
        reply_text: 'Stop',
      },
    });
    const leadId = await lead('+380631234567');
    const res = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { lead_id: leadId, message: 'Hello', gateway_id: gateway.id },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().data.id as number;
    await waitUntil('delivered', async () => (await message(id)).status === 'delivered');
    expect(await message(id)).toMatchObject({ state: 'submitted', status: 'delivered' });
    await waitUntil('the opt-out', async () => (await actions(leadId)).includes('sms_opt_out'));
    expect(await actions(leadId)).toEqual(
      expect.arrayContaining(['sms_sent', 'sms_status_sent', 'sms_status_delivered', 'sms_opt_out']),
    );
    const after = (await t.request({ method: 'GET', url: `/api/leads/${leadId}`, token: owner.token })).json();
    expect(after.status).toBe('blacklisted');
    const again = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { phone: '+380631234567', message: 'Hello again', gateway_id: gateway.id },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.phone[0].code).toBe('sms_phone_blacklisted');
  });

  it('TurboSMS is polled until a final status', async () => {
    const gateway = await createGateway(t, owner.token, {
      type: 'turbosms',
      name: 'Turbo',
      credentials: { access_token: turbo.token, from: 'MyShop', base_url: turbo.url },
    });
    const res = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { phone: '+380671234567', message: 'Polled', gateway_id: gateway.id },
    });
    expect(res.statusCode).toBe(200);
    const { id, provider_message_id: providerId } = res.json().data;
    expect(providerId).toBeTruthy();
    // The provider moves it on; the next poll hears it.
    turbo.statuses.set(providerId, 'Delivered');
    await waitUntil('the polled delivery', async () => (await message(id)).status === 'delivered', 30_000);
  });
});
