import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * The campaign engine (decision 032) end to end through the fake Twilio: a scheduled campaign whose
 * time passed starts on the next tick, fixes its recipients, sends step 1 through the messages
 * dispatch, step 2 after each recipient's delay, and completes; pause holds it, resume continues;
 * a balance that runs out pauses it and a top-up and resume send the rest, none lost or doubled.
 */
describe.each(databases)('the campaign engine on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind, { HERALD_PLANS_FILE: paidSmsPlans(), MESSAGE_CLAIM_LEASE_MS: '2000' });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });
  const db = () => t.app.services.database.db;

  const { call, team, launch, campaign } = campaignFixtures(
    () => t,
    () => twilio,
  );
  const charges = async (userId: number, campaignId: number) =>
    (
      await sql<{ type: string; n: number }>`select t.type, count(*)::int as n from transactions t
        where t.user_id = ${userId} and t.idempotency_key like ${`%campaign:%`}
          and exists (select 1 from messages m where m.campaign_id = ${campaignId} and t.idempotency_key like '%' || m.charge_key)
        group by t.type`.execute(db())
    ).rows;

  it('starts a missed start, fixes its recipients, sends step 1 then step 2 to each, once, and completes', async () => {
    const { owner, list, phones } = await team(3);
    const id = await launch(owner.token, list.id, [{ message: 'Engine first' }, { message: 'Engine second' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    for (const phone of phones) {
      expect(twilio.sent(phone, 'Engine first')).toBe(1);
      expect(twilio.sent(phone, 'Engine second')).toBe(1);
    }
    const recipients = await db().selectFrom('campaign_recipients').selectAll().where('campaign_id', '=', id).execute();
    expect(recipients.map((r) => r.skip_reason)).toEqual([null, null, null]);
    const steps = await db()
      .selectFrom('campaign_steps')
      .select(['status', 'recipients_count'])
      .where('campaign_id', '=', id)
      .orderBy('position')
      .execute();
    expect(steps).toEqual([
      { status: 'sent', recipients_count: 3 },
      { status: 'sent', recipients_count: 3 },
    ]);
    // Step 2 went after each recipient's own step 1.
    const order = await sql<{ late: number }>`select count(*)::int as late from messages a join messages b
      on a.campaign_id = b.campaign_id and a.phone = b.phone and a.campaign_step_id <> b.campaign_step_id
      where a.campaign_id = ${id} and a.text = 'Engine second' and b.text = 'Engine first' and a.called_at < b.submitted_at`.execute(
      db(),
    );
    expect(order.rows[0]?.late).toBe(0);
    expect(await charges(owner.user.id, id)).toEqual([{ type: 'sent_message', n: 6 }]);
    const logs = await db()
      .selectFrom('campaign_logs')
      .select('type')
      .where('campaign_id', '=', id)
      .orderBy('id')
      .execute();
    expect(logs.map((l) => l.type)).toEqual(
      expect.arrayContaining(['campaign_started', 'campaign_step_started', 'campaign_completed']),
    );
    await expectLedgerBalanced(t);
  });

  it('waits each recipient its step delay after their own step 1', async () => {
    const { owner, list, phones } = await team(2);
    const id = await launch(owner.token, list.id, [
      { message: 'Delay first' },
      { message: 'Delay second', delay_minutes: 60 },
    ]);
    await waitUntil('step 1 sent', async () => phones.every((p) => twilio.sent(p, 'Delay first') === 1), 30_000);
    await waitUntil('step 2 queued', async () => {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from messages where campaign_id = ${id} and text = 'Delay second'`.execute(db());
      return r.rows[0]?.n === 2;
    });
    const gaps = await sql<{ gap: number }>`select extract(epoch from (b.not_before - a.submitted_at))::float8 as gap
      from messages a join messages b on a.phone = b.phone and b.campaign_id = a.campaign_id
      where a.campaign_id = ${id} and a.text = 'Delay first' and b.text = 'Delay second'`.execute(db());
    for (const g of gaps.rows) expect(g.gap).toBeGreaterThanOrEqual(3600 - 1);
    expect((await campaign(id)).status).toBe('active');
    for (const p of phones) expect(twilio.sent(p, 'Delay second')).toBe(0);
  });

  it('pauses within a second and resumes where it stopped, every recipient once', async () => {
    const { owner, list, phones } = await team(6);
    // Two a second: the pause lands while most are still queued.
    const id = await launch(owner.token, list.id, [{ message: 'Pause me' }], { frequency_per_minute: 120 });
    await waitUntil('the first sent', async () => phones.some((p) => twilio.sent(p, 'Pause me') === 1), 30_000);
    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'paused' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
    const atPause = phones.filter((p) => twilio.sent(p, 'Pause me') === 1).length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(phones.filter((p) => twilio.sent(p, 'Pause me') === 1).length).toBe(atPause);
    expect(atPause).toBeLessThan(phones.length);
    expect((await campaign(id)).status).toBe('paused');

    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'scheduled' })).statusCode).toBe(200);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    for (const p of phones) expect(twilio.sent(p, 'Pause me')).toBe(1);
    const types = (await db().selectFrom('campaign_logs').select('type').where('campaign_id', '=', id).execute()).map(
      (l) => l.type,
    );
    expect(types).toContain('campaign_resumed');
  });

  it('pauses when the balance runs out, and after a top-up and resume sends the rest, none lost or doubled', async () => {
    const { owner, list, phones } = await team(3, '');
    // Money for step 1 and one message of step 2: the balance runs out inside step 2.
    const id = await launch(owner.token, list.id, [{ message: 'Pay first' }, { message: 'Pay me' }], {}, async (c) => {
      const preview = (await call(owner.token, 'GET', `/campaigns/${c}/preview`)).json();
      await topUpThroughSandbox(t, owner.token, ((preview.cost.price_per_part * 4) / 100).toFixed(2));
    });
    await waitUntil('paused for balance', async () => (await campaign(id)).status === 'paused', 30_000);
    const paused = await campaign(id);
    expect(paused.paused_reason).toBe('campaign_policy_not_enough_balance');
    const logs = (await db().selectFrom('campaign_logs').select('type').where('campaign_id', '=', id).execute()).map(
      (l) => l.type,
    );
    expect(logs).toContain('campaign_policy_not_enough_balance');
    const sentBefore = phones.filter((p) => twilio.sent(p, 'Pay me') === 1).length;
    expect(sentBefore).toBeLessThan(phones.length);

    await topUpThroughSandbox(t, owner.token, '50.00');
    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'scheduled' })).statusCode).toBe(200);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    for (const p of phones) expect(twilio.sent(p, 'Pay me')).toBe(1);
    expect(await charges(owner.user.id, id)).toEqual([{ type: 'sent_message', n: phones.length * 2 }]);
    for (const p of phones) expect(twilio.sent(p, 'Pay first')).toBe(1);
    await expectLedgerBalanced(t);
  });

  it('resumes by itself after a top-up when the launcher has auto-refill', async () => {
    const { owner, list, phones } = await team(2, '');
    await db().updateTable('users').set({ balance_auto_refill: true }).where('id', '=', owner.user.id).execute();
    const id = await launch(
      owner.token,
      list.id,
      [{ message: 'Refill first' }, { message: 'Refill me' }],
      {},
      async (c) => {
        const preview = (await call(owner.token, 'GET', `/campaigns/${c}/preview`)).json();
        await topUpThroughSandbox(t, owner.token, ((preview.cost.price_per_part * 3) / 100).toFixed(2));
      },
    );
    await waitUntil('paused for balance', async () => (await campaign(id)).status === 'paused', 30_000);
    await topUpThroughSandbox(t, owner.token, '50.00');
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    for (const p of phones) expect(twilio.sent(p, 'Refill me')).toBe(1);
    expect(await charges(owner.user.id, id)).toEqual([{ type: 'sent_message', n: phones.length * 2 }]);
    await expectLedgerBalanced(t);
  });
});
