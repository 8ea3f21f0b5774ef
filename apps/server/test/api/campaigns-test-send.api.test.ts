import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addMember } from '../support/accounts.ts';
import { expectLedgerBalanced } from '../support/billing.ts';
import { attributeIds, createAttribute, createLead } from '../support/leads.ts';
import { databases } from '../support/test-app.ts';
import { campaignWorld } from '../support/campaigns.ts';

const locale = (lang: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../web/src/locales/${lang}/messages.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;
const LOCALES = ['uk', 'en', 'ru'].map(locale);
const TESTER = '+380671112233';

/**
 * The test campaign (spec sections 2 and 7, decision 033): every step at once to the phone typed,
 * rendered for a sample lead of the audience with live links, each charged as the user's single
 * SMS; refused for the statuses that cannot be tested, for a bad phone, and for another team.
 */
describe.each(databases)('the test campaign on %s', (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team } = world;

  /** A draft over the team's list: step 1 with the lead's name and a link, step 2 an hour later. */
  async function draft(token: string, listId: number) {
    const c = (await call(token, 'POST', '/campaigns', {})).json();
    expect(
      (await call(token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [listId] })).statusCode,
    ).toBe(200);
    const steps = [
      { message: 'Hi {{imia|friend}}, sale {{link}}', redirect_to: 'https://shop.example.ua/sale', delay_minutes: 0 },
      { message: 'Last day, {{imia}}. Stop: {{unsubscribe}}', delay_minutes: 60 },
    ];
    for (const s of steps)
      expect((await call(token, 'POST', `/campaigns/${c.id}/campaign-steps`, s)).statusCode).toBe(201);
    return Number(c.id);
  }
  const test = (token: string, id: number, phone: string, headers: Record<string, string> = {}) =>
    world.app().request({ method: 'POST', url: `/api/campaigns/${id}/test`, token, payload: { phone }, headers });
  const balance = async (userId: number) =>
    Number(
      (await db().selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow()).balance,
    );
  const sentTo = (phone: string) => [...world.twilio().messages.values()].filter((m) => m.to === phone).length;
  const singleCharges = async (userId: number) =>
    (
      await db()
        .selectFrom('transactions')
        .select(['type', 'amount'])
        .where('user_id', '=', userId)
        .where('type', 'in', ['sent_single_message', 'sent_message'])
        .execute()
    ).map((r) => ({ type: r.type, amount: Number(r.amount) }));

  /** A team whose only lead is named Олена, and its draft. */
  async function named() {
    const fixture = await team(0);
    const { owner, source, list } = fixture;
    const ids = await attributeIds(world.app(), owner.token);
    const nameId = await createAttribute(world.app(), owner.token, "Ім'я");
    const lead = await createLead(world.app(), owner.token, source.id, list.id, [
      [ids.phone as number, '+380501110001'],
      [nameId, 'Олена'],
    ]);
    expect(lead.statusCode, lead.body).toBe(201);
    return { ...fixture, id: await draft(owner.token, list.id) };
  }

  it('sends every step at once to the phone, rendered for a lead of the audience, links live, charged as single SMS', async () => {
    const { owner, id } = await named();
    const before = await balance(owner.user.id);
    const res = await test(owner.token, id, '+38 (067) 111-22-33');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 'sms_sent', message: 'Message sent' });
    expect(body.data).toHaveLength(2);
    const [first, second] = body.data as Array<{
      id: number;
      text: string;
      parts: number;
      state: string;
      phone: string;
      price: number;
      kind: string;
    }>;
    expect(first).toMatchObject({ phone: TESTER, state: 'submitted', parts: 1, kind: 'single' });
    expect(second).toMatchObject({ phone: TESTER, state: 'submitted', kind: 'single' });

    // Each message's own short links, live: the link redirects to the step's target.
    const links = await db()
      .selectFrom('short_links')
      .select(['message_id', 'kind', 'host', 'code', 'redirect_to'])
      .where('message_id', 'in', [first.id, second.id])
      .execute();
    const link = links.find((l) => Number(l.message_id) === first.id && l.kind === 'link');
    const stop = links.find((l) => Number(l.message_id) === second.id && l.kind === 'unsubscribe');
    expect(first.text).toBe(`Hi Олена, sale ${link?.host}/${link?.code}`);
    expect(second.text).toBe(`Last day, Олена. Stop: ${stop?.host}/${stop?.code}`);
    const visit = await world.app().request({
      method: 'GET',
      url: `/${link?.code}`,
      headers: {
        host: link?.host as string,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36',
      },
    });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('https://shop.example.ua/sale');

    // Both reached the gateway once, to the tester; the lead got nothing; the campaign did not move.
    expect(world.twilio().sent(TESTER, first.text)).toBe(1);
    expect(world.twilio().sent(TESTER, second.text)).toBe(1);
    expect(sentTo('+380501110001')).toBe(0);
    const c = await db()
      .selectFrom('campaigns')
      .select(['status', 'started_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(c).toEqual({ status: 'draft', started_at: null });
    const campaignRows = await db().selectFrom('messages').select('id').where('campaign_id', '=', id).execute();
    expect(campaignRows).toEqual([]);
    const log = await db()
      .selectFrom('campaign_logs')
      .select(['type', 'user_id', 'data'])
      .where('campaign_id', '=', id)
      .where('type', '=', 'campaign_test_sent')
      .execute();
    expect(log).toHaveLength(1);
    expect(Number(log[0]?.user_id)).toBe(owner.user.id);
    expect(JSON.stringify(log[0]?.data)).toContain(TESTER);
    // Charged as two single SMS, from the tester's balance.
    const charges = await singleCharges(owner.user.id);
    expect(charges.map((c) => c.type)).toEqual(['sent_single_message', 'sent_single_message']);
    const total = first.price + second.price;
    expect(total).toBeGreaterThan(0);
    expect(before - (await balance(owner.user.id))).toBe(total);
    await expectLedgerBalanced(world.app());
  });

  it('sends a retried request with the same key once', async () => {
    const { owner, id } = await named();
    const phone = '+380671112244';
    const key = { 'idempotency-key': `test-${Math.random().toString(36).slice(2)}` };
    const one = await test(owner.token, id, phone, key);
    const two = await test(owner.token, id, phone, key);
    expect(one.statusCode, one.body).toBe(200);
    expect(two.json().data.map((m: { id: number }) => m.id)).toEqual(one.json().data.map((m: { id: number }) => m.id));
    expect(sentTo(phone)).toBe(2);
    expect(await singleCharges(owner.user.id)).toHaveLength(2);
  });

  it('tests draft, scheduled and paused campaigns; refuses active, completed, failed (and processing, rejected), sending nothing', async () => {
    const { owner, id } = await named();
    for (const status of ['active', 'completed', 'failed', 'processing', 'rejected'] as const) {
      await db().updateTable('campaigns').set({ status }).where('id', '=', id).execute();
      const res = await test(owner.token, id, TESTER);
      expect(res.statusCode, status).toBe(409);
      expect(res.json().detail.code).toBe('campaign_not_testable');
      for (const messages of LOCALES) expect(messages.campaign_not_testable).toBeTruthy();
    }
    expect(await singleCharges(owner.user.id)).toEqual([]);
    for (const status of ['scheduled', 'paused'] as const) {
      await db().updateTable('campaigns').set({ status }).where('id', '=', id).execute();
      const res = await test(owner.token, id, '+380671112255');
      expect(res.statusCode, `${status}: ${res.body}`).toBe(200);
    }
    expect(sentTo('+380671112255')).toBe(4);
  });

  it('refuses a bad phone with the translated 422, and a campaign without steps; nothing sent or charged', async () => {
    const { owner, list, id } = await named();
    for (const phone of ['12', 'not a phone']) {
      const res = await test(owner.token, id, phone);
      expect(res.statusCode, phone).toBe(422);
      const code = res.json().errors.phone[0].code as string;
      for (const messages of LOCALES) expect(messages[code], code).toBeTruthy();
    }
    const empty = (await call(owner.token, 'POST', '/campaigns', {})).json();
    await call(owner.token, 'POST', `/campaigns/${empty.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
    const none = await test(owner.token, Number(empty.id), TESTER);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.phone[0].code).toBe('campaign_steps_required');
    expect(await singleCharges(owner.user.id)).toEqual([]);
    const rows = await db().selectFrom('messages').select('id').where('user_id', '=', owner.user.id).execute();
    expect(rows).toEqual([]);
  });

  it("answers 404 for another team's campaign, sending and charging nothing; operators get 403", async () => {
    const { id } = await named();
    const other = await team(0);
    const before = await balance(other.owner.user.id);
    const res = await test(other.owner.token, id, '+380671112266');
    expect(res.statusCode).toBe(404);
    expect(res.json().detail.code).toBe('campaign_not_found');
    expect(await test(other.owner.token, 99_999_999, '+380671112266').then((r) => r.statusCode)).toBe(404);
    expect(sentTo('+380671112266')).toBe(0);
    expect(await balance(other.owner.user.id)).toBe(before);
    expect(await singleCharges(other.owner.user.id)).toEqual([]);
    const operator = await addMember(world.app(), other.owner.token, 'team_operator');
    expect((await test(operator.token, id, '+380671112266')).statusCode).toBe(403);
  });
});
