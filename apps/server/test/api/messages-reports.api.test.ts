import type { DomainEvents } from '@herald/shared/events/domain-events';
import { sql } from 'kysely';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { startFakeTelnyx } from '../support/fake-providers/fake-telnyx.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, createTwilioGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Delivery reports matched by the row their callback names (decision 025): a row whose send died
 * before its provider id was written is reconciled by it; a report that outruns its row is kept and
 * applied once the row settles, never dropped; live events only for single SMS; `messages.moved`.
 */
describe.each(databases)('delivery reports and their rows on %s', (kind) => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeTwilio>>;
  let telnyx: Awaited<ReturnType<typeof startFakeTelnyx>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let gateway: Awaited<ReturnType<typeof createTwilioGateway>>;
  const moved: Array<DomainEvents['messages.moved']> = [];
  beforeAll(async () => {
    [fake, telnyx] = await Promise.all([startFakeTwilio(), startFakeTelnyx()]);
    t = await startTestApp(
      kind,
      {},
      { sweepEveryMs: 300, onDomainEvents: (events) => events.on('messages.moved', (e) => void moved.push(e)) },
    );
    owner = await signupVerified(t);
    gateway = await createTwilioGateway(t, owner.token, fake);
    await topUpThroughSandbox(t, owner.token, '50.00');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await telnyx?.close();
  });

  const db = () => t.app.services.database.db;
  const row = async (id: number) =>
    (
      await sql<{ state: string; status: string | null; provider_message_id: string | null; kind: string }>`
        select state, status, provider_message_id, kind from messages where id = ${id}`.execute(db())
    ).rows[0];
  const kept = async (id: number) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from message_reports_kept where message_id = ${id}`.execute(db()))
        .rows[0].n,
    );
  /** What the process left after the call began: as if it died before writing the answer. */
  const unanswered = (id: number, state: 'claimed' | 'unknown') =>
    sql`update messages set state = ${state}, provider_message_id = null, status = null,
      lease_until = now() + interval '1 hour' where id = ${id}`.execute(db());

  /** A single SMS to a new lead; its row id, its provider's sid, and the lead. */
  async function sent(phone: string, gatewayId = gateway.id) {
    const { source, list } = await sourceWithList(t, owner.token, `S ${phone}`);
    const ids = await attributeIds(t, owner.token);
    const leadId = (await createLead(t, owner.token, source.id, list.id, [[ids.phone, phone]])).json().id as number;
    const res = await t.request({
      method: 'POST',
      url: '/api/leads/single-sms',
      token: owner.token,
      payload: { lead_id: leadId, message: 'Hello', gateway_id: gatewayId },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { id: number; provider_message_id: string };
    return { id: data.id, sid: data.provider_message_id, leadId };
  }

  /** Twilio's status callback for `sid` to the row's own status URL (`?m=`), signed as Twilio signs it: the whole URL. */
  function report(rowId: number, sid: string, status: string) {
    const url = `${gateway.webhook_urls.status}?m=${rowId}`;
    const params = { MessageSid: sid, MessageStatus: status, AccountSid: fake.account.sid, ApiVersion: '2010-04-01' };
    return deliver(t, {
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(fake.account.token, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
  }
  const timeline = async (leadId: number) =>
    (
      (await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token })).json().data as Array<{
        action: string;
      }>
    ).map((e) => e.action);

  it('a row whose send died before its provider id was written is reconciled by the report naming it', async () => {
    const { id, sid, leadId } = await sent('+380671110001');
    await unanswered(id, 'unknown');
    expect((await report(id, sid, 'delivered')).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ state: 'submitted', status: 'delivered', provider_message_id: sid });
    expect(await timeline(leadId)).toContain('sms_status_delivered');
  });

  it('a row named under a signature moves only by its own provider id', async () => {
    const a = await sent('+380671110002');
    const b = await sent('+380671110003');
    // B's URL with A's sid (a captured callback's URL reused): neither moves.
    expect((await report(b.id, a.sid, 'delivered')).statusCode).toBe(200);
    expect((await row(a.id)).status).toBe('queued');
    expect((await row(b.id)).status).toBe('queued');
    expect((await report(b.id, b.sid, 'delivered')).statusCode).toBe(200);
    expect((await row(b.id)).status).toBe('delivered');
  });

  it('where only the body is signed (Telnyx), the URL names a row only the provider id has not claimed', async () => {
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
    const a = await sent('+380671110011', telnyxGateway.id);
    const b = await sent('+380671110012', telnyxGateway.id);
    await unanswered(b.id, 'unknown');
    const toB = (url: string) => {
      const named = new URL(url);
      named.searchParams.set('m', String(b.id));
      return named.toString();
    };
    // A's signed event sent to B's URL: A's provider id decides; B learns nothing from it.
    const aDelivered = telnyx.event(a.sid, 'message.finalized', 'delivered');
    expect((await deliver(t, { ...aDelivered, url: toB(aDelivered.url) })).statusCode).toBe(200);
    expect(await row(a.id)).toMatchObject({ status: 'delivered', provider_message_id: a.sid });
    expect(await row(b.id)).toMatchObject({ state: 'unknown', status: null, provider_message_id: null });
    // B's own event to its own URL binds it.
    const bDelivered = telnyx.event(b.sid, 'message.finalized', 'delivered');
    expect((await deliver(t, { ...bDelivered, url: toB(bDelivered.url) })).statusCode).toBe(200);
    expect(await row(b.id)).toMatchObject({ state: 'submitted', status: 'delivered', provider_message_id: b.sid });
  });

  it('a report that outruns its row is kept, then applied once the row settles', async () => {
    const { id, sid, leadId } = await sent('+380671110004');
    await unanswered(id, 'claimed');
    expect((await report(id, sid, 'delivered')).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ state: 'claimed', status: null });
    expect(await kept(id)).toBe(1);
    // The send settles with the provider's answer; the next report of the row brings the kept one back.
    await sql`update messages set state = 'submitted', provider_message_id = ${sid}, status = 'queued' where id = ${id}`.execute(
      db(),
    );
    expect((await report(id, sid, 'sent')).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ state: 'submitted', status: 'delivered' });
    expect(await kept(id)).toBe(0);
    expect(await timeline(leadId)).toContain('sms_status_delivered');
  });

  it('a kept report whose row settled without a word (its process died) is applied by the sweep', async () => {
    const { id, sid } = await sent('+380671110005');
    await unanswered(id, 'claimed');
    expect((await report(id, sid, 'delivered')).statusCode).toBe(200);
    expect(await kept(id)).toBe(1);
    // The claim ran out after the call began: unknown, still without the provider's id.
    await sql`update messages set state = 'unknown', lease_until = null where id = ${id}`.execute(db());
    await waitUntil('the kept report applied', async () => (await row(id)).status === 'delivered');
    expect(await row(id)).toMatchObject({ state: 'submitted', provider_message_id: sid });
    expect(await kept(id)).toBe(0);
  });

  it('live events go to single SMS only; every moved row is told as messages.moved', async () => {
    const single = await sent('+380671110006');
    const step = await sent('+380671110007');
    await sql`update messages set kind = 'campaign_step', campaign_id = 77, campaign_step_id = 78 where id = ${step.id}`.execute(
      db(),
    );
    const live: number[] = [];
    const stop = t.app.services.bus.subscribe((e) => {
      if (e.event.type === 'MessageStatus' && e.event.payload.message_id !== null)
        live.push(e.event.payload.message_id);
    });
    moved.length = 0;
    try {
      expect((await report(single.id, single.sid, 'sent')).statusCode).toBe(200);
      expect((await report(step.id, step.sid, 'sent')).statusCode).toBe(200);
      await waitUntil('the single message event', () => live.includes(single.id));
      expect(live).not.toContain(step.id);
      const told = moved.flatMap((e) => e.messages);
      expect(told).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: single.id, kind: 'single', status: 'sent', state: 'submitted' }),
          expect.objectContaining({
            id: step.id,
            kind: 'campaign_step',
            campaignId: 77,
            campaignStepId: 78,
            status: 'sent',
          }),
        ]),
      );
      expect(moved.every((e) => e.teamId === owner.user.team_id)).toBe(true);
    } finally {
      stop();
    }
  });
});
