import { beforeAll, describe, expect, it } from 'vitest';
import { type Filter, resultsWorld } from '../support/results-world.ts';
import { databases } from '../support/test-app.ts';
import { campaignWorld } from '../support/campaigns.ts';

/**
 * The results filters (decision 039): sms_status, engagement, engagement_period and campaigns, read
 * through an audience's leads. The campaigns' rows are written as the engine and the redirects leave
 * them, one lead per SMS status, so each expectation names its leads.
 */
describe.each(databases)(
  'results filters on %s',
  (kind) => {
    const fixtures = campaignWorld(kind);
    const { db, call, team } = fixtures;
    const { campaignOf, world, matching, f } = resultsWorld(fixtures);

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
