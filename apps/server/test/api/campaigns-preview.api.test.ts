import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIgnoredFormats } from '@herald/shared/leads/phone';
import { recipientBuckets } from '../../src/modules/campaigns/campaign-recipients.repository.ts';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createAttribute, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp, UNLIMITED_TRIAL_PLANS } from '../support/test-app.ts';

/** The unlimited Trial without free SMS: every part is paid from the balance (UA: 50 kopecks a part). */
function paidSmsPlans(): string {
  const catalogue = JSON.parse(readFileSync(UNLIMITED_TRIAL_PLANS, 'utf8'));
  catalogue.plans[0].features['free-sms-limit'] = 0;
  const file = join(tmpdir(), `herald-campaign-preview-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

const LONG_LATIN = 'Spring sale at the shop on Khreshchatyk: every coat half price, every scarf a third off. '.repeat(
  2,
);

describe.each(databases)(
  'campaign preview: every audience lead in one bucket, parts, cost and finish on %s',
  (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(kind, { HERALD_PLANS_FILE: paidSmsPlans() });
    });
    afterAll(async () => {
      await t?.close();
    });
    const db = () => t.app.services.database.db;

    it('counts each exclusion once, adds up to the audience, and the engine writes the same buckets', async () => {
      const owner = await signupVerified(t);
      const teamId = owner.user.team_id;
      await createGateway(t, owner.token, { type: 'simulator', name: 'Sim' });
      const { source, list } = await sourceWithList(t, owner.token, 'Expo');
      const ids = await attributeIds(t, owner.token);
      const nameAttr = await createAttribute(t, owner.token, 'First name');
      const slug = Object.entries(await attributeIds(t, owner.token)).find(([, id]) => id === nameAttr)?.[0] as string;
      const lead = async (phones: string[], name = 'Olena') => {
        const res = await createLead(t, owner.token, source.id, list.id, [
          ...phones.map((p): [number, string] => [ids.phone, p]),
          [nameAttr, name],
        ]);
        if (res.statusCode !== 201) throw new Error(res.body);
        return res.json().id as number;
      };
      const l1 = await lead(['+380501110001']);
      await lead(['+380501110001']); // the same person again: duplicate_phone
      const blacklisted = await lead(['+380501110003']);
      const noPhone = await lead(['+380501110004']);
      const banned = await lead(['+380501110005']);
      await lead(['+380671110006']); // ignored format below
      await lead(['+380501110007']); // opted out below
      // Its first phone is banned on another lead: the second one is used.
      const l8 = await lead(['+380501110005', '+380501110008'], 'Oleksandra-Mariia');
      await db().updateTable('leads').set({ status: 'blacklisted' }).where('id', '=', blacklisted).execute();
      await db().deleteFrom('lead_values').where('lead_id', '=', noPhone).where('type', '=', 'phone').execute();
      await db()
        .updateTable('lead_values')
        .set({ ban: true })
        .where('lead_id', '=', banned)
        .where('type', '=', 'phone')
        .execute();
      await sql`insert into message_opt_outs (team_id, phone, reason) values (${teamId}, '+380501110007', 'stop')`.execute(
        db(),
      );
      expect(
        (
          await t.request({
            method: 'PUT',
            url: '/api/validation-template/phone',
            token: owner.token,
            payload: { values: '+38067*' },
          })
        ).statusCode,
      ).toBe(200);

      const campaign = (
        await t.request({ method: 'POST', url: '/api/campaigns', token: owner.token, payload: {} })
      ).json();
      // The list and its source name the same leads: each is counted once.
      for (const [k, ref] of [
        ['list', list.id],
        ['source', source.id],
      ] as const) {
        const res = await t.request({
          method: 'POST',
          url: `/api/campaigns/${campaign.id}/audiences`,
          token: owner.token,
          payload: { kind: k, ref_ids: [ref] },
        });
        expect(res.statusCode).toBe(200);
      }
      const step = (payload: object) =>
        t.request({ method: 'POST', url: `/api/campaigns/${campaign.id}/campaign-steps`, token: owner.token, payload });
      expect(
        (await step({ message: `Привіт, {{${slug}}}! {{link}}`, redirect_to: 'https://shop.example/sale' })).statusCode,
      ).toBe(201);
      expect((await step({ message: LONG_LATIN, delay_minutes: 60, limit_cap: 1 })).statusCode).toBe(201);

      const preview = async () => {
        const res = await t.request({
          method: 'GET',
          url: `/api/campaigns/${campaign.id}/preview`,
          token: owner.token,
        });
        expect(res.statusCode).toBe(200);
        return res.json();
      };
      const p = await preview();
      expect(p.audience).toBe(8);
      expect(p.recipients).toBe(2);
      expect(p.skipped).toEqual({
        blacklisted: 1,
        no_valid_phone: 1,
        banned: 1,
        ignored_format: 1,
        opted_out: 1,
        duplicate_phone: 1,
        capped: 0,
        limit_cap: 0,
        // No phone of the team was looked up (lookup-results-campaigns.api.test.ts has them).
        not_valid_mobile: 0,
      });
      const skipped = Object.values(p.skipped as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(p.recipients + skipped).toBe(p.audience);
      // Step 1: Cyrillic (UCS-2), the longest name (17) and a short link (17): one part. Step 2: two GSM parts, capped at 1.
      expect(p.steps).toEqual([
        expect.objectContaining({ position: 1, recipients: 2, parts: 1, encoding: 'UCS-2', parts_total: 2 }),
        expect.objectContaining({ position: 2, recipients: 1, parts: 2, encoding: 'GSM-7', parts_total: 2 }),
      ]);
      expect(p.cost).toMatchObject({
        parts_total: 4,
        free_parts: 0,
        paid_parts: 4,
        price_per_part: 50,
        money: 200,
        currency: 'UAH',
        balance: 0,
        first_step_payable: false,
        payable: false,
      });
      expect(p.finish.per_minute).toBe(60);
      expect(new Date(p.finish.finishes_at).getTime()).toBeGreaterThanOrEqual(new Date(p.finish.starts_at).getTime());

      // Not enough balance for the first step: refused, translated, nothing changed.
      const refused = await t.request({
        method: 'PUT',
        url: `/api/campaigns/${campaign.id}/status`,
        token: owner.token,
        payload: { status: 'scheduled' },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        code: 'balance_insufficient',
        detail: { code: 'balance_not_enough_messages' },
      });
      await topUpThroughSandbox(t, owner.token, '1.50');
      const paid = await preview();
      expect(paid.cost).toMatchObject({ balance: 150, first_step_payable: true, payable: false });
      const scheduled = await t.request({
        method: 'PUT',
        url: `/api/campaigns/${campaign.id}/status`,
        token: owner.token,
        payload: { status: 'scheduled' },
      });
      expect(scheduled.json()).toMatchObject({ status: 'scheduled', launched_by: owner.user.id });

      // The engine's write: the same statement, the same buckets; a rerun adds nothing.
      const audience = {
        teamId,
        sources: [source.id],
        lists: [list.id],
        segments: [],
        ignored: compileIgnoredFormats('+38067*').map((r) => r.source),
      };
      const written = await recipientBuckets(db(), campaign.id, audience, { write: true });
      expect({ audience: written.audience, recipients: written.recipients, skipped: written.skipped }).toEqual({
        audience: p.audience,
        recipients: p.recipients,
        skipped: p.skipped,
      });
      expect((await recipientBuckets(db(), campaign.id, audience, { write: true })).audience).toBe(0);
      const rows = await db()
        .selectFrom('campaign_recipients')
        .select(['lead_id', 'phone'])
        .where('campaign_id', '=', campaign.id)
        .where('skip_reason', 'is', null)
        .orderBy('lead_id')
        .execute();
      expect(rows.map((r) => [Number(r.lead_id), r.phone])).toEqual([
        [l1, '+380501110001'],
        [l8, '+380501110008'],
      ]);
      // Once started, the preview reads the recipients as written, whatever the audience does since.
      await db().updateTable('campaigns').set({ started_at: new Date() }).where('id', '=', campaign.id).execute();
      await db().updateTable('leads').set({ status: 'blacklisted' }).where('id', '=', l1).execute();
      const fixed = await preview();
      expect({ audience: fixed.audience, recipients: fixed.recipients, skipped: fixed.skipped }).toEqual({
        audience: p.audience,
        recipients: p.recipients,
        skipped: p.skipped,
      });
    });

    it('reaches a segment’s leads, and forecasts the finish under quiet hours', async () => {
      const owner = await signupVerified(t);
      await createGateway(t, owner.token, { type: 'simulator', name: 'Sim' });
      const { source, list } = await sourceWithList(t, owner.token, 'Fair');
      const ids = await attributeIds(t, owner.token);
      for (let i = 0; i < 3; i++)
        await createLead(t, owner.token, source.id, list.id, [[ids.phone, `+38050222000${i}`]]);
      const segment = await t.request({
        method: 'POST',
        url: '/api/segments',
        token: owner.token,
        payload: { name: 'Fair visitors', filters: [{ id: 'source', operator: 'eq', values: [String(source.id)] }] },
      });
      expect(segment.statusCode).toBe(201);
      const campaign = (
        await t.request({
          method: 'POST',
          url: '/api/campaigns',
          token: owner.token,
          payload: { timezone: 'UTC', start_at: '2030-01-01 20:59', frequency_per_minute: 1 },
        })
      ).json();
      await t.request({
        method: 'POST',
        url: `/api/campaigns/${campaign.id}/audiences`,
        token: owner.token,
        payload: { kind: 'segment', ref_ids: [segment.json().id] },
      });
      await t.request({
        method: 'POST',
        url: `/api/campaigns/${campaign.id}/campaign-steps`,
        token: owner.token,
        payload: { message: 'Hello' },
      });
      const p = (
        await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}/preview`, token: owner.token })
      ).json();
      expect(p).toMatchObject({ audience: 3, recipients: 3 });
      // One a minute from 20:59: one before 21:00, the other two from 09:00 the next morning.
      expect(p.finish).toMatchObject({
        starts_at: '2030-01-01T20:59:00.000Z',
        finishes_at: '2030-01-02T09:02:00.000Z',
      });
      await t.request({
        method: 'PUT',
        url: `/api/campaigns/${campaign.id}`,
        token: owner.token,
        payload: { quiet_hours: false },
      });
      const open = (
        await t.request({ method: 'GET', url: `/api/campaigns/${campaign.id}/preview`, token: owner.token })
      ).json();
      expect(open.finish.finishes_at).toBe('2030-01-01T21:02:00.000Z');
    });
  },
);
