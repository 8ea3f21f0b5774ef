import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced } from '../support/billing.ts';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { attributeIds, createLead } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * The team's frequency cap across campaigns (decision 034): off by default; with it on, a phone
 * gets at most N campaign messages of the team in H hours, and a recipient over it is skipped at
 * send time, never sent or charged, and counted as `capped`.
 */
describe.each(databases)('the frequency cap across campaigns on %s', (kind) => {
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
  const { call, team, launch, campaign, db } = campaignFixtures(
    () => t,
    () => twilio,
  );
  const cap = (token: string, body?: unknown) =>
    call(token, body === undefined ? 'GET' : 'PUT', '/settings/campaign-frequency-cap', body);
  const completed = (id: number) =>
    waitUntil(`campaign ${id} completed`, async () => (await campaign(id)).status === 'completed', 30_000);

  it('is off by default, set by the owner for the own team only, refused when out of range', async () => {
    const owner = await signupVerified(t);
    const other = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await cap(owner.token)).json()).toEqual({ messages: null, hours: 24 });
    const saved = await cap(owner.token, { messages: 2, hours: 48 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await cap(owner.token)).json()).toEqual({ messages: 2, hours: 48 });
    // Another team's setting is its own.
    expect((await cap(other.token)).json()).toEqual({ messages: null, hours: 24 });
    // Operators see no campaigns and change no settings.
    expect((await cap(operator.token)).statusCode).toBe(403);
    expect((await cap(operator.token, { messages: 1, hours: 1 })).statusCode).toBe(403);
    for (const bad of [
      { messages: 0, hours: 24 },
      { messages: 1, hours: 0 },
      { messages: 1, hours: 9000 },
    ])
      expect((await cap(owner.token, bad)).statusCode).toBe(422);
    expect((await cap(owner.token)).json()).toEqual({ messages: 2, hours: 48 });
    // Off again.
    expect((await cap(owner.token, { messages: null, hours: 48 })).json()).toEqual({ messages: null, hours: 48 });
  });

  it('skips a phone that had its messages in the window: counted capped, never sent or charged', async () => {
    const { owner, source, list, phones } = await team(2);
    expect((await cap(owner.token, { messages: 1, hours: 24 })).statusCode).toBe(200);
    const first = await launch(owner.token, list.id, [{ message: 'Cap first' }]);
    await completed(first);
    for (const p of phones) expect(twilio.sent(p, 'Cap first')).toBe(1);

    // The same two phones and a new one: only the new one is under the cap.
    const ids = await attributeIds(t, owner.token);
    const fresh = `+38067${String(1_000_000 + process.pid).slice(-7)}`;
    const lead = await createLead(t, owner.token, source.id, list.id, [[ids.phone as number, fresh]]);
    expect(lead.statusCode, lead.body).toBe(201);
    const second = await launch(owner.token, list.id, [{ message: 'Cap second' }, { message: 'Cap third' }]);
    await completed(second);
    for (const p of phones) expect(twilio.sent(p, 'Cap second')).toBe(0);
    expect(twilio.sent(fresh, 'Cap second')).toBe(1);
    // The new phone's second message of this campaign is over the cap too.
    expect(twilio.sent(fresh, 'Cap third')).toBe(0);

    const rows = await sql<{ phone: string; state: string; error_code: string | null; charged: number }>`
      select m.phone, m.state, m.error_code,
        (select count(*)::int from transactions x where x.idempotency_key like '%' || m.charge_key) as charged
      from messages m where m.campaign_id = ${second} order by m.id`.execute(db());
    const capped = rows.rows.filter((r) => r.error_code === 'skipped_capped');
    expect(capped.map((r) => r.phone).sort()).toEqual([...phones, fresh].sort());
    for (const r of capped) expect(r).toMatchObject({ state: 'failed', charged: 0 });

    // The preview reads the recipients as the engine left them: the capped ones in their bucket.
    const preview = (await call(owner.token, 'GET', `/campaigns/${second}/preview`)).json();
    expect(preview.skipped.capped).toBe(2);
    expect(preview.recipients).toBe(1);
    expect(preview.audience).toBe(3);
    await expectLedgerBalanced(t);
  });

  it('counts only the window: messages older than it leave the phone free again', async () => {
    const { owner, list, phones } = await team(2);
    expect((await cap(owner.token, { messages: 1, hours: 2 })).statusCode).toBe(200);
    const first = await launch(owner.token, list.id, [{ message: 'Window first' }]);
    await completed(first);
    // One phone's message went out three hours ago: outside the two-hour window.
    const [old, recent] = phones as [string, string];
    await sql`update messages set called_at = now() - interval '3 hours'
      where campaign_id = ${first} and phone = ${old}`.execute(db());
    const second = await launch(owner.token, list.id, [{ message: 'Window second' }]);
    await completed(second);
    expect(twilio.sent(old, 'Window second')).toBe(1);
    expect(twilio.sent(recent, 'Window second')).toBe(0);
  });

  it('leaves every phone alone when the team has no cap, and counts only the own team’s messages', async () => {
    const { owner, list, phones } = await team(2);
    const first = await launch(owner.token, list.id, [{ message: 'Free first' }]);
    await completed(first);
    const second = await launch(owner.token, list.id, [{ message: 'Free second' }]);
    await completed(second);
    for (const p of phones) expect(twilio.sent(p, 'Free second')).toBe(1);

    // Another team with a cap of one reaches the same phone: this team's two messages are not its.
    const other = await team(0);
    expect((await cap(other.owner.token, { messages: 1, hours: 24 })).statusCode).toBe(200);
    const ids = await attributeIds(t, other.owner.token);
    const phone = phones[0] as string;
    const lead = await createLead(t, other.owner.token, other.source.id, other.list.id, [[ids.phone as number, phone]]);
    expect(lead.statusCode, lead.body).toBe(201);
    const theirs = await launch(other.owner.token, other.list.id, [{ message: 'Other team' }]);
    await completed(theirs);
    expect(twilio.sent(phone, 'Other team')).toBe(1);
  });
});
