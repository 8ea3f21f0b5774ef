import { beforeAll, describe, expect, it } from 'vitest';
import { resultsWorld } from '../support/results-world.ts';
import { databases } from '../support/test-app.ts';
import { campaignWorld } from '../support/campaigns.ts';

/**
 * POST campaigns/{id}/create-segment (decision 039): an audience (or a segment of one) of the
 * campaign's leads with an SMS status or an engagement, dynamic or frozen; refused for campaigns
 * still to send, not found for another team's campaign or audience, and then nothing is made.
 */
describe.each(databases)(
  'create-segment from a campaign on %s',
  (kind) => {
    const fixtures = campaignWorld(kind);
    const { db, call, team } = fixtures;
    const { campaignOf, world } = resultsWorld(fixtures);

    const leadsOf = async (token: string, L: number[], id: number) => {
      const page = (await call(token, 'GET', `/segments/${id}/leads?limit=100`)).json();
      return page.data.map((l: { id: number }) => L.indexOf(l.id)).sort((a: number, b: number) => a - b);
    };
    const segmentsOf = async (teamId: number) =>
      (await db().selectFrom('segments').select('id').where('team_id', '=', teamId).execute()).length;

    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    const byStatus: Array<[string, number[]]> = [
      ['delivered', [0]],
      ['sent', [1, 2]],
      ['queued', [3]],
      ['sending', [4]],
      ['blocked_by_carrier', [5]],
      ['failed', [6, 7]],
      ['inactive_device', [8]],
    ];
    it.each(byStatus)(
      'sms_status %s: an audience of those recipients of the campaign, dynamic and frozen',
      async (status, expected) => {
        const { owner, L, c1 } = w;
        for (const frozen of [false, true]) {
          const r = await call(owner.token, 'POST', `/campaigns/${c1}/create-segment`, {
            name: `${status} ${frozen}`,
            ignore_new_leads: frozen,
            sms_status: status,
          });
          expect(r.statusCode, r.body).toBe(201);
          const segment = r.json();
          expect(segment).toMatchObject({
            name: `${status} ${frozen}`,
            ignore_new_leads: frozen,
            parent_segment_id: null,
          });
          expect(segment.filters).toEqual([
            { id: 'campaigns', operator: 'eq', values: [String(c1)] },
            { id: 'sms_status', operator: 'eq', values: [status] },
          ]);
          expect(segment.leads_count).toBe(expected.length);
          expect(await leadsOf(owner.token, L, segment.id)).toEqual(expected);
        }
      },
    );

    it.each([
      ['engaged', [0, 1, 2, 6]],
      ['unsubscribe', [4]],
    ] as Array<[string, number[]]>)(
      'engagement %s: the campaign’s leads that did it, dynamic and frozen',
      async (engagement, expected) => {
        const { owner, L, c1 } = w;
        for (const frozen of [false, true]) {
          const r = await call(owner.token, 'POST', `/campaigns/${c1}/create-segment`, {
            name: `${engagement} ${frozen}`,
            ignore_new_leads: frozen,
            engagement,
          });
          expect(r.statusCode, r.body).toBe(201);
          expect(await leadsOf(owner.token, L, r.json().id)).toEqual(expected);
        }
      },
    );

    it('a dynamic segment follows new reports, a frozen one keeps the leads it had', async () => {
      const { owner, L, c1, m } = await world();
      const make = async (frozen: boolean) =>
        (
          await call(owner.token, 'POST', `/campaigns/${c1}/create-segment`, {
            name: `Delivered ${frozen}`,
            ignore_new_leads: frozen,
            sms_status: 'delivered',
          })
        ).json().id as number;
      const dynamic = await make(false);
      const frozen = await make(true);
      // L1's report arrives: delivered.
      await db().updateTable('messages').set({ status: 'delivered' }).where('id', '=', m[1]).execute();
      expect(await leadsOf(owner.token, L, dynamic)).toEqual([0, 1]);
      expect(await leadsOf(owner.token, L, frozen)).toEqual([0]);
    });

    it('both a status and an engagement, as a segment of a chosen audience', async () => {
      const { owner, L, c1 } = w;
      const audience = (
        await call(owner.token, 'POST', '/segments', {
          name: 'Not L2',
          filters: [{ id: 'sms_status', operator: 'not_eq', values: ['delivered'] }],
        })
      ).json();
      const r = await call(owner.token, 'POST', `/campaigns/${c1}/create-segment`, {
        audience_id: audience.id,
        name: 'Sent and clicked',
        ignore_new_leads: false,
        sms_status: 'sent',
        engagement: 'engaged',
      });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ parent_segment_id: audience.id, parent: { id: audience.id } });
      expect(await leadsOf(owner.token, L, r.json().id)).toEqual([1, 2]);
    });

    it('refuses campaigns still to send and a request without a status or engagement; nothing is made', async () => {
      const { owner, teamId, c2 } = w;
      const before = await segmentsOf(teamId);
      for (const status of ['draft', 'scheduled', 'active', 'processing']) {
        const id = await campaignOf(owner.token, teamId, status, []);
        const r = await call(owner.token, 'POST', `/campaigns/${id}/create-segment`, { name: 'X', sms_status: 'sent' });
        expect(r.statusCode, r.body).toBe(422);
        expect(r.json().errors.status[0].code).toBe('campaign_segment_unavailable');
      }
      const none = await call(owner.token, 'POST', `/campaigns/${c2}/create-segment`, { name: 'X' });
      expect(none.statusCode).toBe(422);
      expect(none.body).toContain('campaign_segment_filter_required');
      expect(await segmentsOf(teamId)).toBe(before);
    });

    it("another team's campaign or audience is not found, and nothing is made", async () => {
      const { owner, teamId, c1 } = w;
      const other = await team(0);
      const theirs = await campaignOf(other.owner.token, other.owner.user.team_id, 'completed', []);
      const theirAudience = (await call(other.owner.token, 'POST', '/segments', { name: 'Theirs' })).json().id;
      const before = [await segmentsOf(teamId), await segmentsOf(other.owner.user.team_id)];
      const r = await call(owner.token, 'POST', `/campaigns/${theirs}/create-segment`, {
        name: 'X',
        sms_status: 'sent',
      });
      expect(r.statusCode).toBe(404);
      const child = await call(owner.token, 'POST', `/campaigns/${c1}/create-segment`, {
        name: 'X',
        audience_id: theirAudience,
        sms_status: 'sent',
      });
      expect(child.statusCode).toBe(404);
      expect([await segmentsOf(teamId), await segmentsOf(other.owner.user.team_id)]).toEqual(before);
    });
  },
  240_000,
);
