import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { attributeIds, createAttribute, createLead } from '../support/leads.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * The engine's rules (decision 032): the campaign's rate, quiet hours in the recipient's zone, a
 * recipient who opts out between steps, and auto-fail exactly at its threshold.
 */
describe.each(databases)('the campaign engine rules on %s', (kind) => {
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
  const { team, launch, campaign } = campaignFixtures(
    () => t,
    () => twilio,
  );
  const rowsOf = (id: number, text: string) =>
    db()
      .selectFrom('messages')
      .selectAll()
      .where('campaign_id', '=', id)
      .where('text', '=', text)
      .orderBy('id')
      .execute();

  it('sends a campaign of 120 a minute no faster than one each half second, across its rows', async () => {
    const { owner, list, phones } = await team(4);
    const id = await launch(owner.token, list.id, [{ message: 'Rate me' }], { frequency_per_minute: 120 });
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const rows = await rowsOf(id, 'Rate me');
    expect(rows).toHaveLength(phones.length);
    // Each row holds a slot 500 ms after the one before, and no call went before its slot: in any
    // window of w ms at most 1 + w / 500 calls.
    const slots = rows.map((r) => (r.not_before as Date).getTime()).sort((a, b) => a - b);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBeGreaterThanOrEqual(499);
    for (const r of rows)
      expect((r.called_at as Date).getTime()).toBeGreaterThanOrEqual((r.not_before as Date).getTime() - 5);
    for (const p of phones) expect(twilio.sent(p, 'Rate me')).toBe(1);
  });

  it('holds a message due inside quiet hours in the recipient’s zone until they end', async () => {
    const { owner, list, phones } = await team(2);
    // Quiet from an hour ago to an hour ahead in Kyiv (Ukrainian numbers): the start lands inside.
    const hhmm = (offsetMin: number) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Kyiv',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(Date.now() + offsetMin * 60_000));
    const id = await launch(owner.token, list.id, [{ message: 'Quiet me' }], {
      timezone: 'America/New_York',
      quiet_hours: true,
      quiet_from: hhmm(-60),
      quiet_to: hhmm(60),
    });
    await waitUntil('step 1 queued', async () => (await rowsOf(id, 'Quiet me')).length === 2);
    const expected = Math.floor((Date.now() + 60 * 60_000) / 60_000) * 60_000;
    for (const r of await rowsOf(id, 'Quiet me'))
      expect(Math.abs((r.not_before as Date).getTime() - expected)).toBeLessThanOrEqual(2 * 60_000);
    await new Promise((r) => setTimeout(r, 1_500));
    for (const p of phones) expect(twilio.sent(p, 'Quiet me')).toBe(0);
    expect((await campaign(id)).status).toBe('active');
  });

  it('never sends step 2 to a recipient who opted out after step 1, and counts them', async () => {
    const { owner, list, phones } = await team(2);
    const [gone, stays] = phones as [string, string];
    const id = await launch(owner.token, list.id, [
      { message: 'Before opt-out' },
      { message: 'After opt-out', delay_minutes: 60 },
    ]);
    await waitUntil('step 2 queued', async () => (await rowsOf(id, 'After opt-out')).length === 2, 30_000);
    await db()
      .insertInto('message_opt_outs')
      .values({ team_id: owner.user.team_id, phone: gone, gateway_id: null, reason: 'stop' })
      .execute();
    // Step 2 comes due for both now.
    await db()
      .updateTable('messages')
      .set({ not_before: sql`now()` })
      .where('campaign_id', '=', id)
      .where('state', '=', 'pending')
      .execute();
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    expect(twilio.sent(gone, 'After opt-out')).toBe(0);
    expect(twilio.sent(stays, 'After opt-out')).toBe(1);
    const skipped = (await rowsOf(id, 'After opt-out')).find((r) => r.phone === gone);
    expect(skipped).toMatchObject({
      state: 'failed',
      error_code: 'skipped_opted_out',
      called_at: null,
      price: expect.anything(),
    });
    const charges = await sql<{
      n: number;
    }>`select count(*)::int as n from transactions where idempotency_key like ${`%${skipped?.charge_key}`}`.execute(
      db(),
    );
    expect(charges.rows[0]?.n).toBe(0);
  });

  it('fails at 20 % failed once 1,000 were sent, not at 999, and cancels what was queued uncharged', async () => {
    const { owner, gateway, list } = await team(1);
    const id = await launch(owner.token, list.id, [
      { message: 'Fail first' },
      { message: 'Fail later', delay_minutes: 60 },
    ]);
    await waitUntil('step 2 queued', async () => (await rowsOf(id, 'Fail later')).length === 1, 30_000);
    // 998 more handed to the gateway beside the real one (999), 200 of them failed: 20 %, too few sent.
    const sent = (n: number, failed: number, from: number) =>
      sql`insert into messages (team_id, user_id, kind, campaign_id, phone, gateway_id, text, parts, encoding,
          charge_key, state, called_at, submitted_at, error_code)
        select ${owner.user.team_id}, ${owner.user.id}, 'campaign_step', ${id}, '+1555' || i, ${gateway.id}, 'x', 1, 'GSM-7',
          'autofail:' || ${id} || ':' || i, case when i < ${from + failed} then 'failed' else 'submitted' end, now(), now(),
          case when i < ${from + failed} then 'provider' end
        from generate_series(${from}::int, ${from + n - 1}::int) as i`.execute(db());
    await sent(998, 200, 0);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await campaign(id)).status).toBe('active');
    await sent(1, 0, 998);
    await waitUntil('auto-failed', async () => (await campaign(id)).status === 'failed', 10_000);
    expect((await campaign(id)).failed_reason).toBe('campaign_auto_failed');
    const [later] = await rowsOf(id, 'Fail later');
    expect(later).toMatchObject({ state: 'failed', error_code: 'campaign_failed', called_at: null });
    const logs = await db().selectFrom('campaign_logs').select('type').where('campaign_id', '=', id).execute();
    expect(logs.map((l) => l.type)).toContain('campaign_failed');
  });

  it('records a recipient excluded at the start with its reason and never sends to them', async () => {
    const { owner, list, phones } = await team(2);
    const [kept, out] = phones as [string, string];
    await db()
      .insertInto('message_opt_outs')
      .values({ team_id: owner.user.team_id, phone: out, gateway_id: null, reason: 'stop' })
      .execute();
    const id = await launch(owner.token, list.id, [{ message: 'Excluded?' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const recipients = await db()
      .selectFrom('campaign_recipients')
      .select(['phone', 'skip_reason'])
      .where('campaign_id', '=', id)
      .execute();
    expect(recipients).toHaveLength(2);
    expect(recipients.find((r) => r.skip_reason === null)?.phone).toBe(kept);
    expect(recipients.filter((r) => r.skip_reason === 'opted_out')).toHaveLength(1);
    expect(twilio.sent(kept, 'Excluded?')).toBe(1);
    expect(twilio.sent(out, 'Excluded?')).toBe(0);
    expect(await rowsOf(id, 'Excluded?')).toHaveLength(1);
  });

  it('ends uncharged what a step had not handed over by its send-by deadline', async () => {
    const { owner, list, phones } = await team(3);
    // One a minute: the first goes at once, the other two wait for their slots.
    const id = await launch(owner.token, list.id, [{ message: 'Send by' }], { frequency_per_minute: 1 });
    await db().updateTable('campaign_steps').set({ send_by_minutes: 1 }).where('campaign_id', '=', id).execute();
    await waitUntil('the first sent', async () => phones.some((p) => twilio.sent(p, 'Send by') === 1), 30_000);
    await db()
      .updateTable('campaign_steps')
      .set({ started_at: sql`now() - interval '2 minutes'` })
      .where('campaign_id', '=', id)
      .execute();
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const rows = await rowsOf(id, 'Send by');
    expect(rows.filter((r) => r.state === 'submitted')).toHaveLength(1);
    const expired = rows.filter((r) => r.error_code === 'campaign_send_by_passed');
    expect(expired).toHaveLength(2);
    for (const r of expired) {
      expect(r.called_at).toBeNull();
      expect(twilio.sent(r.phone, 'Send by')).toBe(0);
      const charged = await sql<{ n: number }>`select count(*)::int as n from transactions
        where idempotency_key like ${`%${r.charge_key}`}`.execute(db());
      expect(charged.rows[0]?.n).toBe(0);
    }
  });

  it('renders each recipient’s step for their own lead, with the fallback where they have no value', async () => {
    const { owner, source, list, phones } = await team(1);
    const ids = await attributeIds(t, owner.token);
    const nameId = await createAttribute(t, owner.token, "Ім'я");
    const named = '+380671234598';
    const lead = await createLead(t, owner.token, source.id, list.id, [
      [ids.phone as number, named],
      [nameId, 'Олена'],
    ]);
    expect(lead.statusCode, lead.body).toBe(201);
    const id = await launch(owner.token, list.id, [{ message: 'Hi {{imia|friend}}!' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    expect(twilio.sent(phones[0] as string, 'Hi friend!')).toBe(1);
    expect(twilio.sent(named, 'Hi Олена!')).toBe(1);
    const rows = await db()
      .selectFrom('messages')
      .select(['phone', 'text', 'encoding'])
      .where('campaign_id', '=', id)
      .execute();
    expect(rows.find((r) => r.phone === named)).toMatchObject({ text: 'Hi Олена!', encoding: 'UCS-2' });
    expect(rows.find((r) => r.phone !== named)).toMatchObject({ text: 'Hi friend!', encoding: 'GSM-7' });
  });

  it('gives each recipient their own {{link}} and {{unsubscribe}}, made once and sent as written', async () => {
    const { owner, list, phones } = await team(2);
    const id = await launch(owner.token, list.id, [
      { message: 'Sale {{link}} stop {{unsubscribe}}', redirect_to: 'https://shop.example.ua/акція' },
    ]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const rows = await db()
      .selectFrom('messages')
      .select(['id', 'phone', 'text'])
      .where('campaign_id', '=', id)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(2);
    const links = await db()
      .selectFrom('short_links')
      .select(['message_id', 'kind', 'host', 'code', 'redirect_to', 'phone'])
      .where(
        'message_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(links).toHaveLength(4);
    for (const row of rows) {
      const own = links.filter((l) => Number(l.message_id) === Number(row.id));
      const link = own.find((l) => l.kind === 'link');
      const unsubscribe = own.find((l) => l.kind === 'unsubscribe');
      expect(link?.redirect_to).toBe('https://shop.example.ua/%D0%B0%D0%BA%D1%86%D1%96%D1%8F');
      expect(link?.phone).toBe(row.phone);
      expect(row.text).toBe(`Sale ${link?.host}/${link?.code} stop ${unsubscribe?.host}/${unsubscribe?.code}`);
      expect(twilio.sent(row.phone, row.text)).toBe(1);
    }
    expect(new Set(rows.map((r) => r.text)).size).toBe(2);
    expect(phones).toHaveLength(2);
  });
});
