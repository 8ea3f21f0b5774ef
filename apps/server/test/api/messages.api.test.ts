import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createTwilioGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createAttribute, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp, UNLIMITED_TRIAL_PLANS } from '../support/test-app.ts';

const PHONE = '+380501234567';

/** The unlimited Trial without free SMS: every part is paid from the balance. */
function paidSmsPlans(): string {
  const catalogue = JSON.parse(readFileSync(UNLIMITED_TRIAL_PLANS, 'utf8'));
  catalogue.plans[0].features['free-sms-limit'] = 0;
  const file = join(tmpdir(), `herald-paid-sms-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

describe.each(databases)('single SMS through Twilio on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind, { HERALD_PLANS_FILE: paidSmsPlans() });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const db = () => t.app.services.database.db;

  /** An owner with a Twilio gateway (the only one: chosen automatically), a balance and no free SMS. */
  async function team(topUp = '10.00') {
    const owner = await signupVerified(t);
    const gateway = await createTwilioGateway(t, owner.token, twilio);
    if (topUp !== '0') await topUpThroughSandbox(t, owner.token, topUp);
    return { owner, gateway };
  }

  async function lead(token: string, phone = PHONE, firstName = 'Olena') {
    const { source, list } = await sourceWithList(t, token, `S ${Math.random()}`);
    const ids = await attributeIds(t, token);
    const name = await createAttribute(t, token, 'First name');
    const res = await createLead(t, token, source.id, list.id, [
      [ids.phone, phone],
      [name, firstName],
    ]);
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().id as number;
  }

  const send = (token: string, payload: Record<string, unknown>, key?: string) =>
    t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token,
      payload,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const rows = async (teamId: number) =>
    (
      await sql<{
        id: number;
        state: string;
        status: string | null;
        price: number;
        provider_message_id: string | null;
      }>`
        select id, state, status, price, provider_message_id from messages where team_id = ${teamId} order by id`.execute(
        db(),
      )
    ).rows;
  const charges = async (userId: number) =>
    (
      await sql<{
        amount: number;
      }>`select amount from transactions where user_id = ${userId} and type = 'sent_single_message'`.execute(db())
    ).rows;
  const balance = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/balance', token })).json().balance;
  const timeline = async (token: string, leadId: number) =>
    (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token })).json().data as Array<{
      action: string;
      diff_log: Array<{ value_from: string | null; value_to: string | null }>;
    }>;

  it('writes the row before Twilio is called, renders the lead, charges once, and answers the message', async () => {
    const { owner } = await team();
    const leadId = await lead(owner.token);
    let seenAtCall: Awaited<ReturnType<typeof rows>> = [];
    twilio.onCall = async () => {
      seenAtCall = await rows(owner.user.team_id);
    };
    const res = await send(owner.token, { lead_id: leadId, message: 'Hi {{first_name}}!' });
    twilio.onCall = undefined;
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      lead_id: leadId,
      phone: PHONE,
      text: 'Hi Olena!',
      parts: 1,
      state: 'submitted',
      status: 'queued',
    });
    expect(seenAtCall).toEqual([expect.objectContaining({ id: data.id, state: 'claimed', provider_message_id: null })]);
    const call = twilio.calls.at(-1);
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toMatchObject({ To: PHONE, Body: 'Hi Olena!' });
    expect(call?.headers['i-twilio-idempotency-token']).toBe(`msg-${data.id}`);
    expect((await charges(owner.user.id)).map((c) => Number(c.amount))).toEqual([-data.price]);
    expect(data.price).toBeGreaterThan(0);
    expect((await timeline(owner.token, leadId)).map((e) => e.action)).toContain('sms_sent');
    await expectLedgerBalanced(t);
  });

  it('a refusal fails the row with the provider code (422) and gives its charge back; a provider error is unknown, never sent again', async () => {
    const { owner } = await team();
    twilio.mode = 'reject';
    const refused = await send(owner.token, { phone: PHONE, message: 'Refused' });
    twilio.mode = 'server_error';
    const calls = twilio.calls.length;
    const erred = await send(owner.token, { phone: PHONE, message: 'Erred' });
    const tries = twilio.calls.slice(calls);
    twilio.mode = 'ok';
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.message[0].code).toBe('sms_send_failed');
    // Twilio does not dedupe by our key: after its 5xx the message may have gone, so it is not sent again.
    expect(erred.statusCode).toBe(200);
    expect(erred.json()).toMatchObject({ code: 'sms_send_unknown', data: { state: 'unknown' } });
    expect(tries).toHaveLength(1);
    const ended = (
      await sql<{ state: string; error_code: string; refunded: boolean }>`select state, error_code,
        refunded_at is not null as refunded from messages where team_id = ${owner.user.team_id} order by id`.execute(
        db(),
      )
    ).rows;
    expect(ended).toEqual([
      { state: 'failed', error_code: '21610', refunded: true },
      { state: 'unknown', error_code: '20500', refunded: false },
    ]);
    const refunds = (
      await sql<{
        amount: number;
      }>`select amount from transactions where user_id = ${owner.user.id} and type = 'refund'`.execute(db())
    ).rows;
    const [first] = await charges(owner.user.id);
    expect(refunds.map((r) => Number(r.amount))).toEqual([-Number(first.amount)]);
    await expectLedgerBalanced(t);
  });

  it('a retried request with the same idempotency key sends and charges once', async () => {
    const { owner } = await team();
    const before = twilio.calls.length;
    const key = `retry-${Date.now()}`;
    const [a, b] = await Promise.all([
      send(owner.token, { phone: '0501234567', message: 'Once' }, key),
      send(owner.token, { phone: '0501234567', message: 'Once' }, key),
    ]);
    const c = await send(owner.token, { phone: '0501234567', message: 'Once' }, key);
    for (const r of [a, b, c]) expect(r.statusCode).toBe(200);
    expect(new Set([a, b, c].map((r) => r.json().data.id)).size).toBe(1);
    expect(twilio.calls.length - before).toBe(1);
    expect(await charges(owner.user.id)).toHaveLength(1);
    expect(await rows(owner.user.team_id)).toHaveLength(1);
  });

  it('not enough balance: 422, nothing written, nothing sent', async () => {
    const { owner } = await team('0');
    const before = twilio.calls.length;
    const res = await send(owner.token, { phone: PHONE, message: 'Hi' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'Not enough balance to send messages' });
    expect(twilio.calls.length).toBe(before);
    expect(await rows(owner.user.team_id)).toEqual([]);
    expect(await charges(owner.user.id)).toEqual([]);
  });

  it('applies status callbacks by rank: out of order and repeated reports never move back; forged ones 403', async () => {
    const { owner } = await team();
    const leadId = await lead(owner.token);
    const sent = (await send(owner.token, { lead_id: leadId, message: 'Status' })).json().data;
    const sid = sent.provider_message_id as string;
    const status = async () => (await rows(owner.user.team_id)).find((r) => r.id === sent.id)?.status;

    const forged = await deliver(t, twilio.statusCallback(sid, 'failed', {}, 'not-the-token'));
    expect(forged.statusCode).toBe(403);
    expect(await status()).toBe('queued');

    expect((await deliver(t, twilio.statusCallback(sid, 'delivered'))).statusCode).toBe(200);
    expect(await status()).toBe('delivered');
    for (const late of ['sent', 'sending', 'delivered', 'undelivered'])
      expect((await deliver(t, twilio.statusCallback(sid, late))).statusCode).toBe(200);
    expect(await status()).toBe('delivered');
    const moves = (await timeline(owner.token, leadId)).filter((e) => e.action.startsWith('sms_status_'));
    expect(moves.map((e) => e.action)).toEqual(['sms_status_delivered', 'sms_status_queued']);
  });

  it('an inbound STOP blacklists the phone for the team, and a later send is refused', async () => {
    const { owner, gateway } = await team();
    const leadId = await lead(owner.token, '+380671112233');
    const other = await team();
    const otherLead = await lead(other.owner.token, '+380671112233');
    const stop = await deliver(
      t,
      twilio.inbound(gateway.webhook_urls.inbound as string, '+380671112233', '+15005550006', ' стоп '),
    );
    expect(stop.statusCode).toBe(200);
    const leadRow = (await t.request({ method: 'GET', url: `/api/leads/${leadId}`, token: owner.token })).json();
    expect(leadRow.status).toBe('blacklisted');
    expect(leadRow.lead_values.find((v: { value: string }) => v.value === '+380671112233').ban).toBe(true);
    expect((await timeline(owner.token, leadId)).map((e) => e.action)).toContain('sms_opt_out');
    const before = twilio.calls.length;
    for (const payload of [
      { lead_id: leadId, message: 'Hi' },
      { phone: '+380671112233', message: 'Hi' },
    ]) {
      const refused = await send(owner.token, payload);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail?.code ?? refused.json().errors).toBeTruthy();
    }
    expect(twilio.calls.length).toBe(before);
    // Another team's lead with the same phone is not touched.
    const theirs = (
      await t.request({ method: 'GET', url: `/api/leads/${otherLead}`, token: other.owner.token })
    ).json();
    expect(theirs.status).not.toBe('blacklisted');
    // Other replies land on the Timeline.
    await deliver(
      t,
      twilio.inbound(other.gateway.webhook_urls.inbound as string, '+380671112233', '+15005550006', 'Thanks!'),
    );
    expect((await timeline(other.owner.token, otherLead)).map((e) => e.action)).toContain('sms_received');
  });

  it("another team's lead or gateway is 404 and nothing is sent or charged", async () => {
    const mine = await team();
    const theirs = await team();
    const theirLead = await lead(theirs.owner.token);
    const before = twilio.calls.length;
    expect((await send(mine.owner.token, { lead_id: theirLead, message: 'Hi' })).statusCode).toBe(404);
    expect(
      (await send(mine.owner.token, { phone: PHONE, message: 'Hi', gateway_id: theirs.gateway.id })).statusCode,
    ).toBe(404);
    expect(twilio.calls.length).toBe(before);
    expect(await rows(mine.owner.user.team_id)).toEqual([]);
    expect(await charges(mine.owner.user.id)).toEqual([]);
  });

  it('an operator sends, charged to their own balance', async () => {
    const { owner } = await team();
    const operator = await addMember(t, owner.token, 'team_operator');
    const share = await t.request({
      method: 'POST',
      url: '/api/balance/share',
      token: owner.token,
      payload: { amount: '2.00', memberId: operator.user.id },
    });
    expect(share.statusCode).toBe(200);
    const ownerBefore = await balance(owner.token);
    const res = await send(operator.token, { phone: PHONE, message: 'From the operator' });
    expect(res.statusCode).toBe(200);
    expect(await charges(operator.user.id)).toHaveLength(1);
    expect(await balance(operator.token)).toBe(200 - res.json().data.price);
    expect(await balance(owner.token)).toBe(ownerBefore);
  });

  it('gives {{link}} and {{unsubscribe}} a short link each for the message; refuses a missing target and an unknown sender', async () => {
    const { owner } = await team();
    const leadId = await lead(owner.token);
    const res = await send(owner.token, {
      lead_id: leadId,
      message: 'See {{link}} Stop: {{unsubscribe}}',
      redirect_to: 'https://example.com/sale',
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.text).toMatch(/^See herald\.test\/\w+ Stop: herald\.test\/\w+$/);
    const links = (
      await sql<{ kind: string; redirect_to: string | null; lead_id: number; host: string; code: string }>`
        select kind, redirect_to, lead_id, host, code from short_links where message_id = ${data.id} order by kind`.execute(
        db(),
      )
    ).rows;
    expect(links.map((l) => [l.kind, l.redirect_to, Number(l.lead_id)])).toEqual([
      ['link', 'https://example.com/sale', leadId],
      ['unsubscribe', null, leadId],
    ]);
    for (const l of links) expect(data.text).toContain(`${l.host}/${l.code}`);
    expect(Object.fromEntries(new URLSearchParams(twilio.calls.at(-1)?.body)).Body).toBe(data.text);
    const missing = await send(owner.token, { phone: PHONE, message: 'See {{link}}' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.redirect_to[0].code).toBe('sms_redirect_required');
    const from = await send(owner.token, { phone: PHONE, message: 'Hi', from: 'NotMine' });
    expect(from.statusCode).toBe(422);
    expect(from.json().errors.from[0].code).toBe('sms_sender_invalid');
  });
});
