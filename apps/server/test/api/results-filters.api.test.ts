import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

type Filter = { id: string; operator: string; values: string[] };

/**
 * The results filters (decision 039): sms_status, engagement, engagement_period and campaigns, read
 * through an audience's leads. The campaigns' rows are written as the engine and the redirects leave
 * them, one lead per SMS status, so each expectation names its leads.
 */
describe.each(databases)(
  'results filters on %s',
  (kind) => {
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
    const { db, call, team } = campaignFixtures(
      () => t,
      () => twilio,
    );

    let seq = 0;
    /** A campaign in this status, with these leads as recipients (the last `skipped` skipped at the start). */
    async function campaignOf(token: string, teamId: number, status: string, leads: number[], skipped: number[] = []) {
      const c = (await call(token, 'POST', '/campaigns', {})).json();
      await db()
        .updateTable('campaigns')
        .set({ status: status as never })
        .where('id', '=', c.id)
        .execute();
      if (leads.length + skipped.length === 0) return Number(c.id);
      await db()
        .insertInto('campaign_recipients')
        .values([
          ...leads.map((lead_id) => ({ campaign_id: c.id, team_id: teamId, lead_id, phone: `+3805${lead_id}` })),
          ...skipped.map((lead_id) => ({
            campaign_id: c.id,
            team_id: teamId,
            lead_id,
            skip_reason: 'blacklisted' as const,
          })),
        ])
        .execute();
      return Number(c.id);
    }
    /** A campaign message of the lead, in the state and status the engine leaves it. */
    async function message(
      teamId: number,
      campaignId: number,
      leadId: number,
      row: { state: string; status?: string | null; error_code?: string | null; submitted_at?: string },
    ) {
      const m = await db()
        .insertInto('messages')
        .values({
          team_id: teamId,
          lead_id: leadId,
          kind: 'campaign_step',
          campaign_id: campaignId,
          phone: `+3805${leadId}`,
          text: 'Sale {{link}}',
          parts: 1,
          encoding: 'GSM-7',
          charge_key: `results-${process.pid}-${seq++}`,
          state: row.state as never,
          status: (row.status ?? null) as never,
          error_code: row.error_code ?? null,
          submitted_at: row.state === 'submitted' ? sql<Date>`now()` : null,
          // Out of the engine's reach while the test reads it: not due, and a claim that holds.
          not_before: sql<Date>`now() + interval '1 day'`,
          lease_until: row.state === 'claimed' ? sql<Date>`now() + interval '1 day'` : null,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(m.id);
    }
    /** A link of that message; `clickedAgo` in seconds for a human click, `bot` for a preview's hit only. */
    async function link(
      teamId: number,
      leadId: number,
      messageId: number,
      l: { kind?: 'link' | 'unsubscribe'; clickedAgo?: number; bot?: boolean; unsubscribed?: boolean },
    ) {
      await db()
        .insertInto('short_links')
        .values({
          team_id: teamId,
          lead_id: leadId,
          message_id: messageId,
          kind: l.kind ?? 'link',
          redirect_to: (l.kind ?? 'link') === 'link' ? 'https://shop.test/' : null,
          host: 'go.test',
          code: `r${process.pid}x${seq++}`,
          human_clicks: l.clickedAgo === undefined ? 0 : 1,
          other_hits: l.bot ? 3 : 0,
          first_clicked_at:
            l.clickedAgo === undefined ? null : sql<Date>`now() - make_interval(secs => ${l.clickedAgo})`,
          unsubscribed_at: l.unsubscribed ? sql<Date>`now()` : null,
        } as never)
        .execute();
    }

    /**
     * Ten leads L0..L9; campaign C1 (completed) sent each of L0..L8 one message, one per SMS status,
     * and skipped L9 at the start; campaign C2 (paused) failed to L0. Clicks: L0 an hour ago, L1 24 h
     * and 1 s ago, L2 23 h 59 min ago, L6 40 days ago; L3's link only a bot opened; L4 unsubscribed;
     * L5 opened its unsubscribe link without unsubscribing.
     */
    async function world() {
      const { owner } = await team(10);
      const teamId = owner.user.team_id;
      const leads = (
        await db().selectFrom('leads').select('id').where('team_id', '=', teamId).orderBy('id').execute()
      ).map((r) => Number(r.id));
      const L = leads;
      const c1 = await campaignOf(owner.token, teamId, 'completed', L.slice(0, 9), [L[9]]);
      const c2 = await campaignOf(owner.token, teamId, 'paused', [L[0]]);
      const m = [
        await message(teamId, c1, L[0], { state: 'submitted', status: 'delivered' }),
        await message(teamId, c1, L[1], { state: 'submitted', status: null }),
        await message(teamId, c1, L[2], { state: 'submitted', status: 'sent' }),
        await message(teamId, c1, L[3], { state: 'pending' }),
        await message(teamId, c1, L[4], { state: 'claimed' }),
        await message(teamId, c1, L[5], { state: 'submitted', status: 'blocked_by_carrier' }),
        await message(teamId, c1, L[6], { state: 'failed', error_code: 'gateway_refused' }),
        await message(teamId, c1, L[7], { state: 'submitted', status: 'undelivered' }),
        await message(teamId, c1, L[8], { state: 'submitted', status: 'inactive_device' }),
      ];
      // L9: a skipped row (opted out when due) has no SMS status.
      await message(teamId, c1, L[9], { state: 'failed', error_code: 'skipped_opted_out' });
      const c2m = await message(teamId, c2, L[0], { state: 'failed', error_code: 'gateway_refused' });
      await link(teamId, L[0], m[0], { clickedAgo: 3_600 });
      await link(teamId, L[1], m[1], { clickedAgo: 24 * 3_600 + 1 });
      await link(teamId, L[2], m[2], { clickedAgo: 24 * 3_600 - 60 });
      await link(teamId, L[3], m[3], { bot: true });
      await link(teamId, L[4], m[4], { kind: 'unsubscribe', clickedAgo: 30, unsubscribed: true });
      await link(teamId, L[5], m[5], { kind: 'unsubscribe', clickedAgo: 30 });
      await link(teamId, L[6], m[6], { clickedAgo: 40 * 86_400 });
      return { owner, teamId, L, c1, c2, m, c2m };
    }

    /** The leads an audience with these filters holds, by their index in L; the count agrees with the page. */
    async function matching(token: string, L: number[], filters: Filter[]) {
      const made = await call(token, 'POST', '/segments', { name: `F ${seq++}`, filters });
      expect(made.statusCode, made.body).toBe(201);
      const id = made.json().id;
      const page = (await call(token, 'GET', `/segments/${id}/leads?limit=100`)).json();
      const count = (await call(token, 'GET', `/segments/${id}/leads-count`)).json();
      expect(count.leads_count).toBe(page.meta.total);
      expect(page.meta.total).toBe(page.data.length);
      return page.data.map((l: { id: number }) => L.indexOf(l.id)).sort((a: number, b: number) => a - b);
    }
    const f = (id: string, operator: string, ...values: (string | number)[]) => ({
      id,
      operator,
      values: values.map(String),
    });

    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    it('sms_status eq: each spec status names its leads; undelivered and refused are failed, skipped rows none', async () => {
      const { owner, L, c1 } = w;
      const scoped = (...statuses: string[]) =>
        matching(owner.token, L, [f('campaigns', 'eq', c1), f('sms_status', 'eq', ...statuses)]);
      expect(await scoped('delivered')).toEqual([0]);
      expect(await scoped('sent')).toEqual([1, 2]);
      expect(await scoped('queued')).toEqual([3]);
      expect(await scoped('sending')).toEqual([4]);
      expect(await scoped('blocked_by_carrier')).toEqual([5]);
      expect(await scoped('failed')).toEqual([6, 7]);
      expect(await scoped('inactive_device')).toEqual([8]);
      expect(await scoped('delivered', 'inactive_device')).toEqual([0, 8]);
      // Without a campaign: any campaign's messages (C2 failed to L0).
      expect(await matching(owner.token, L, [f('sms_status', 'eq', 'failed')])).toEqual([0, 6, 7]);
    });

    it('sms_status not_eq: none of the lead’s messages (in the campaign) has the status', async () => {
      const { owner, L, c1 } = w;
      expect(
        await matching(owner.token, L, [f('campaigns', 'eq', c1), f('sms_status', 'not_eq', 'delivered')]),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await matching(owner.token, L, [f('sms_status', 'not_eq', 'failed', 'sent')])).toEqual([3, 4, 5, 8, 9]);
    });

    it('campaigns eq and not_eq: the recipients a campaign addressed, skipped ones not', async () => {
      const { owner, L, c1, c2 } = w;
      expect(await matching(owner.token, L, [f('campaigns', 'eq', c1)])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await matching(owner.token, L, [f('campaigns', 'eq', c2)])).toEqual([0]);
      expect(await matching(owner.token, L, [f('campaigns', 'eq', c1, c2)])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await matching(owner.token, L, [f('campaigns', 'not_eq', c1)])).toEqual([9]);
      expect(await matching(owner.token, L, [f('campaigns', 'not_eq', c2)])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('engagement: engaged is a human click (never a bot), unsubscribe an unsubscribe; not_eq the rest', async () => {
      const { owner, L, c2 } = w;
      expect(await matching(owner.token, L, [f('engagement', 'eq', 'engaged')])).toEqual([0, 1, 2, 6]);
      expect(await matching(owner.token, L, [f('engagement', 'eq', 'unsubscribe')])).toEqual([4]);
      expect(await matching(owner.token, L, [f('engagement', 'eq', 'engaged', 'unsubscribe')])).toEqual([
        0, 1, 2, 4, 6,
      ]);
      expect(await matching(owner.token, L, [f('engagement', 'not_eq', 'engaged')])).toEqual([3, 4, 5, 7, 8, 9]);
      // Scoped to C2, whose one message nobody clicked.
      expect(await matching(owner.token, L, [f('campaigns', 'eq', c2), f('engagement', 'eq', 'engaged')])).toEqual([]);
    });

    it('engagement_period bounds engaged clicks: a click 24 h + 1 s ago is not in 24_hours', async () => {
      const { owner, L } = w;
      const within = (period: string) =>
        matching(owner.token, L, [f('engagement', 'eq', 'engaged'), f('engagement_period', 'eq', period)]);
      expect(await within('24_hours')).toEqual([0, 2]);
      expect(await within('last_7_days')).toEqual([0, 1, 2]);
      expect(await within('last_30_days')).toEqual([0, 1, 2]);
      expect(await within('last_90_days')).toEqual([0, 1, 2, 6]);
      expect(await within('all_time')).toEqual([0, 1, 2, 6]);
      // Calendar periods in UTC, from the clicks' own times.
      const now = new Date();
      const ago = { 0: 3_600, 1: 24 * 3_600 + 1, 2: 24 * 3_600 - 60, 6: 40 * 86_400 };
      const since = (start: number) =>
        Object.entries(ago)
          .filter(([, s]) => now.getTime() - s * 1_000 >= start)
          .map(([i]) => Number(i));
      expect(await within('this_month')).toEqual(since(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
      expect(await within('this_year')).toEqual(since(Date.UTC(now.getUTCFullYear(), 0, 1)));
    });

    it('refuses a period without engaged, a kind twice, a period of two values and another team’s campaign', async () => {
      const { owner, c1 } = w;
      const other = await team(0);
      const before = await db().selectFrom('segments').select('id').where('team_id', '=', owner.user.team_id).execute();
      const refused = async (filters: Filter[], code: string) => {
        const r = await call(owner.token, 'POST', '/segments', { name: 'Refused', filters });
        expect(r.statusCode, r.body).toBe(422);
        expect(r.body).toContain(code);
      };
      await refused([f('engagement_period', 'eq', '24_hours')], 'engagement_period_needs_engaged');
      await refused(
        [f('engagement', 'eq', 'unsubscribe'), f('engagement_period', 'eq', '24_hours')],
        'engagement_period_needs_engaged',
      );
      await refused(
        [f('engagement', 'eq', 'engaged'), f('engagement_period', 'eq', '24_hours', 'all_time')],
        'filter_one_value',
      );
      await refused([f('sms_status', 'eq', 'sent'), f('sms_status', 'eq', 'failed')], 'one_filter_of_kind');
      await refused([f('sms_status', 'eq', 'undelivered')], 'filter_value_invalid');
      await refused([f('campaigns', 'unique', c1)], 'filter_operator');
      // Another team's campaign is unknown here, and theirs is unknown to us.
      const theirs = (await call(other.owner.token, 'POST', '/campaigns', {})).json().id;
      await refused([f('campaigns', 'eq', theirs)], 'unknown_campaign');
      const after = await db().selectFrom('segments').select('id').where('team_id', '=', owner.user.team_id).execute();
      expect(after.length).toBe(before.length);
    });

    it('GET completed-campaigns: the team’s finished campaigns for the campaigns filter, no one else’s', async () => {
      const { owner, teamId, c1, c2 } = w;
      const failed = await campaignOf(owner.token, teamId, 'failed', []);
      const draft = (await call(owner.token, 'POST', '/campaigns', {})).json().id;
      const other = await team(0);
      await campaignOf(other.owner.token, other.owner.user.team_id, 'completed', []);
      const r = await call(owner.token, 'GET', '/completed-campaigns');
      expect(r.statusCode).toBe(200);
      const ids = r.json().data.map((c: { id: number }) => c.id);
      expect(ids.sort()).toEqual([c1, failed].sort());
      expect(ids).not.toContain(c2);
      expect(ids).not.toContain(draft);
      expect(r.json().meta.total).toBe(2);
    });
  },
  180_000,
);
