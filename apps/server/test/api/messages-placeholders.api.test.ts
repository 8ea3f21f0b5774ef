import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as slugsMigration } from '../../src/db/migrations/0030_attribute_slugs.ts';
import { signupVerified } from '../support/accounts.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createTwilioGateway } from '../support/gateways.ts';
import { attributeIds, createAttribute, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp, UNLIMITED_TRIAL_PLANS } from '../support/test-app.ts';

// Placeholders that never send blanks (decision 030): a tag naming no attribute is refused before
// anything is written or sent, a fallback stands in for a missing value, and slugs read like words.
describe.each(databases)('placeholders and the default sender on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind, { HERALD_PLANS_FILE: UNLIMITED_TRIAL_PLANS });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });
  const db = () => t.app.services.database.db;

  async function team() {
    const owner = await signupVerified(t);
    await createTwilioGateway(t, owner.token, twilio);
    const nameId = await createAttribute(t, owner.token, "Ім'я");
    const { source, list } = await sourceWithList(t, owner.token, `S ${Math.random()}`);
    const ids = await attributeIds(t, owner.token);
    const lead = async (phone: string, name?: string) => {
      const values: Array<[number, string]> = [[ids.phone, phone]];
      if (name) values.push([nameId, name]);
      const res = await createLead(t, owner.token, source.id, list.id, values);
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json().id as number;
    };
    return { owner, ids, lead };
  }
  const send = (token: string, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/leads/single-sms', token, payload });
  const sentTo = (phone: string) => twilio.calls.filter((c) => new URLSearchParams(c.body).get('To') === phone);
  const rowsOf = async (teamId: number) =>
    (await sql<{ id: number }>`select id from messages where team_id = ${teamId}`.execute(db())).rows;

  it("names an attribute's slug by the Ukrainian rule: Ім'я is imia", async () => {
    const { ids } = await team();
    expect(ids.imia).toEqual(expect.any(Number));
    expect(ids.im_ia).toBeUndefined();
  });

  it('refuses a placeholder that names no attribute (422, naming it): nothing written, nothing sent', async () => {
    const { owner, lead } = await team();
    const leadId = await lead('+380501110001', 'Олена');
    const before = twilio.calls.length;
    const res = await send(owner.token, { lead_id: leadId, message: 'Привіт, {{name}}! {{imia}} {{ Misto | Київ }}' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message[0]).toEqual({
      code: 'placeholder_unknown',
      params: { placeholders: '{{name}}, {{misto}}' },
    });
    expect(twilio.calls.length).toBe(before);
    expect(await rowsOf(owner.user.team_id)).toEqual([]);
  });

  it("renders the fallback for a lead without a value, and the lead's own value otherwise", async () => {
    const { owner, lead } = await team();
    const withName = await lead('+380501110002', 'Олена');
    const without = await lead('+380501110003');
    const message = 'Привіт, {{imia|друже}}!';
    const a = await send(owner.token, { lead_id: withName, message });
    const b = await send(owner.token, { lead_id: without, message });
    const c = await send(owner.token, { phone: '+380501110004', message: 'Hi {{ IMIA | friend }} {{imia}}.' });
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
    expect(a.json().data.text).toBe('Привіт, Олена!');
    expect(b.json().data.text).toBe('Привіт, друже!');
    // A tag used twice takes the fallback written on either use.
    expect(c.json().data.text).toBe('Hi friend friend.');
    expect(new URLSearchParams(sentTo('+380501110003').at(-1)?.body).get('Body')).toBe('Привіт, друже!');
  });

  it("sends from the team's default alpha name unless another sender is chosen", async () => {
    const { owner } = await team();
    await sql`insert into alpha_names (team_id, name, status, is_default)
      values (${owner.user.team_id}, 'HeraldShop', 1, true), (${owner.user.team_id}, 'OtherName', 1, false)`.execute(
      db(),
    );
    const byDefault = await send(owner.token, { phone: '+380501110005', message: 'Default sender' });
    const chosen = await send(owner.token, { phone: '+380501110006', message: 'Chosen sender', from: 'OtherName' });
    expect(byDefault.statusCode).toBe(200);
    expect(byDefault.json().data.from).toBe('HeraldShop');
    expect(new URLSearchParams(sentTo('+380501110005').at(-1)?.body).get('From')).toBe('HeraldShop');
    expect(chosen.json().data.from).toBe('OtherName');
    expect(new URLSearchParams(sentTo('+380501110006').at(-1)?.body).get('From')).toBe('OtherName');
  });

  it("shows each sent message's sender, gateway, parts and cost in the lead's Timeline", async () => {
    const { owner, lead } = await team();
    await sql`insert into alpha_names (team_id, name, status, is_default)
      values (${owner.user.team_id}, 'HeraldShop', 1, true)`.execute(db());
    const leadId = await lead('+380501110007', 'Олена');
    const sent = await send(owner.token, {
      lead_id: leadId,
      message: `Привіт, {{imia}}! ${'Довгий текст. '.repeat(6)}`,
    });
    expect(sent.statusCode).toBe(200);
    const log = await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: owner.token });
    const entry = log.json().data.find((e: { action: string }) => e.action === 'sms_sent');
    expect(entry.message).toEqual({
      id: sent.json().data.id,
      from: 'HeraldShop',
      gateway: 'Twilio',
      parts: 2,
      price: sent.json().data.price,
      currency: 'UAH',
      status: sent.json().data.status,
    });
    // Another team's entries never carry this team's messages.
    const other = await team();
    const theirs = await t.request({ method: 'GET', url: `/api/leads/${leadId}/log`, token: other.owner.token });
    expect(theirs.statusCode).toBe(404);
  });

  it('refuses a template whose placeholder names no attribute, on create and on update; keeps one with a fallback', async () => {
    const { owner } = await team();
    const save = (method: 'POST' | 'PUT', message: string, id?: number) =>
      t.request({
        method,
        url: `/api/config/template/sms${id ? `/${id}` : ''}`,
        token: owner.token,
        payload: { name: `T ${Math.random()}`, type_id: 'promotion', message },
      });
    const refused = await save('POST', 'Hi {{name}}, see {{link}}');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.message[0]).toEqual({
      code: 'placeholder_unknown',
      params: { placeholders: '{{name}}' },
    });
    const kept = await save('POST', 'Привіт, {{imia|друже}}! {{unsubscribe}}');
    expect(kept.statusCode).toBe(201);
    const update = await save('PUT', 'Привіт, {{imja}}!', kept.json().id);
    expect(update.statusCode).toBe(422);
    const stored = await t.request({
      method: 'GET',
      url: `/api/config/template/sms/${kept.json().id}`,
      token: owner.token,
    });
    expect(stored.json().message).toBe('Привіт, {{imia|друже}}! {{unsubscribe}}');
  });

  it('migration 0030 renames an old slug and rewrites the team’s templates, fallbacks kept; other teams untouched', async () => {
    const { owner, ids } = await team();
    const other = await team();
    const teamId = owner.user.team_id;
    await sql`update lead_attributes set slug = 'im_ia' where id = ${ids.imia}`.execute(db());
    const city = await createAttribute(t, owner.token, 'Місто', 3);
    await sql`update lead_attributes set slug = 'misto_old' where id = ${city}`.execute(db());
    await sql`insert into sms_templates (team_id, user_id, name, type_id, message, params)
      values (${teamId}, ${owner.user.id}, 'Old', 'promotion', 'Hi {{im_ia}}, {{ IM_IA | друже }} from {{misto_old}} {{link}}', '{}'),
             (${other.owner.user.team_id}, ${other.owner.user.id}, 'Other', 'promotion', 'Hi {{im_ia}}', '{}')`.execute(
      db(),
    );
    await slugsMigration(db() as never);
    const slugs = (
      await sql<{ slug: string }>`select slug from lead_attributes where team_id = ${teamId} order by id`.execute(db())
    ).rows.map((r) => r.slug);
    expect(slugs).toEqual(['phone', 'email', 'imia', 'misto']);
    const texts = (
      await sql<{
        message: string;
      }>`select message from sms_templates where name in ('Old', 'Other') order by name`.execute(db())
    ).rows.map((r) => r.message);
    expect(texts).toEqual(['Hi {{imia}}, {{imia| друже }} from {{misto}} {{link}}', 'Hi {{im_ia}}']);
  });
});
