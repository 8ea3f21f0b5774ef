import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { percentOf } from '@herald/shared/campaigns/campaign-results';
import { simulatorPhones } from '../support/gateways.ts';
import { signupVerified } from '../support/accounts.ts';
import { campaignWorld } from '../support/campaigns.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createLead } from '../support/leads.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * A lookup step on the statistics (decision 041, "Statistics"), both databases: `statistic` answers
 * the campaign's lookup step beside its SMS step, in step order, with its phones, what was looked up,
 * reused and found — equal to a recount from the lookup's items and the team's results (another
 * team's results for the same phones never counted) — and its money equal to the ledger's kept
 * lookup charges, counted in the campaign's actual cost. Another team's campaign is 404.
 */
describe.each(databases)(
  'campaign statistics of a lookup step on %s',
  (kind) => {
    const fixtures = campaignWorld(kind, { MESSAGE_CLAIM_LEASE_MS: '2000' });
    const { db, call, launch, campaign } = fixtures;
    let seq = 3_000_000 + (process.pid % 1_000) * 1_000;
    const next = () => {
      seq += 500;
      return seq;
    };

    /** A team with a Twilio gateway for the messages, a simulator gateway for lookups, and these phones. */
    async function team(phones: string[]) {
      const base = await fixtures.team(0, '50.00');
      const simulator = await createGateway(fixtures.app(), base.owner.token, {
        type: 'simulator',
        name: 'Carrier database',
        allow_lookup: true,
        credentials: { from: 'Herald', latency_ms: '0', lookup_latency_ms: '0', delivery_rate: '100' },
      });
      const ids = await attributeIds(fixtures.app(), base.owner.token);
      for (const phone of phones) {
        const lead = await createLead(fixtures.app(), base.owner.token, base.source.id, base.list.id, [
          [ids.phone as number, phone],
        ]);
        expect(lead.statusCode, lead.body).toBe(201);
      }
      return { ...base, simulator };
    }

    it('answers the lookup step’s figures in step order, as the items, results and ledger say', async () => {
      const mobiles = simulatorPhones(3, 'mobile', next());
      const [fresh, unsure] = simulatorPhones(2, 'mobile', next());
      const [unassigned] = simulatorPhones(1, 'invalid', next());
      const landline = `+38044${String(next() % 10_000_000).padStart(7, '0')}`;
      const tollFree = `+380800${String(next() % 1_000_000).padStart(6, '0')}`;
      const phones = [...mobiles, fresh, unsure, unassigned, landline, tollFree];

      const { owner, list, gateway, simulator } = await team(phones);
      const teamId = owner.user.team_id;
      // Two fresh results, reused free: a valid mobile, and a mobile the provider could not judge.
      await sql`insert into phone_lookups (team_id, phone, carrier_name, carrier_type, status_label, checked_at, cost)
        values (${teamId}, ${fresh}, 'Kyivstar', 'mobile', 'valid', now() - interval '1 day', 40),
          (${teamId}, ${unsure}, 'Kyivstar', 'mobile', 'unknown', now() - interval '1 day', 40)`.execute(db());
      // Another team holds other results for the same phones: never read for this team.
      const other = await signupVerified(fixtures.app());
      await sql`insert into phone_lookups (team_id, phone, carrier_type, status_label)
        select ${other.user.team_id}, p, 'landline', 'invalid' from unnest(${phones}::text[]) p`.execute(db());

      const id = await launch(
        owner.token,
        list.id,
        [{ type: 'lookup', message: '' } as never, { message: 'After the lookup' }],
        { gateway_id: gateway.id, skip_invalid_phones: false },
      );
      await waitUntil('campaign completed', async () => (await campaign(id)).status === 'completed', 90_000);

      const res = await call(owner.token, 'GET', `/campaigns/${id}/statistic`);
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json();
      expect(s.steps.map((x: { position: number }) => x.position)).toEqual([2]);
      expect(s.lookup_steps).toHaveLength(1);
      const l = s.lookup_steps[0];
      const [lookup] = await db()
        .selectFrom('lookups')
        .innerJoin('campaign_steps', 'campaign_steps.id', 'lookups.campaign_step_id')
        .select(['lookups.id', 'lookups.gateway_id', 'campaign_steps.id as step_id'])
        .where('campaign_steps.campaign_id', '=', id)
        .execute();

      // The recount: each item by its state and the team's result of its phone.
      const items = await sql<{
        state: string;
        refunds: number;
        status_label: string | null;
        carrier_type: string | null;
      }>`
        select i.state, i.refunds, pl.status_label, pl.carrier_type from lookup_items i
          left join phone_lookups pl on pl.team_id = ${teamId} and pl.phone = i.phone
        where i.lookup_id = ${lookup.id}`.execute(db());
      const settled = items.rows.filter((i) => i.state === 'done' || i.state === 'reused');
      const count = (f: (i: (typeof settled)[number]) => boolean) => settled.filter(f).length;
      const notMobile = (type: string) => count((i) => i.status_label !== 'invalid' && i.carrier_type === type);
      const done = settled.length;
      const recount = {
        phones: items.rows.length,
        done,
        looked_up: items.rows.filter((i) => i.state === 'done').length,
        reused: items.rows.filter((i) => i.state === 'reused').length,
        failed: items.rows.filter((i) => i.state === 'failed').length,
        refunds: items.rows.reduce((n, i) => n + Number(i.refunds), 0),
        valid_mobile: count((i) => i.status_label === 'valid' && i.carrier_type === 'mobile'),
        invalid: count((i) => i.status_label === 'invalid'),
        unknown: count((i) => i.status_label === null || (i.status_label === 'unknown' && i.carrier_type === 'mobile')),
        not_mobile_by_type: {
          landline: notMobile('landline'),
          voip: notMobile('voip'),
          toll_free: notMobile('toll_free'),
          other: notMobile('other'),
        },
      };
      const notMobileAll = Object.values(recount.not_mobile_by_type).reduce((a, b) => a + b, 0);
      // The ledger: the lookup's charges, less the refunds of them.
      const ledger = await sql<{ total: string }>`select coalesce(-sum(amount), 0) as total from transactions
        where team_id = ${teamId} and ((type = 'lookup' and meta->>'lookup_id' = ${String(lookup.id)})
          or (type = 'refund' and meta->>'charge_key' like ${`lookup:${lookup.id}:%`}))`.execute(db());

      expect(l).toEqual({
        step_id: Number(lookup.step_id),
        position: 1,
        status: 'sent',
        lookup_id: Number(lookup.id),
        lookup_status: 3,
        paused_reason: null,
        gateway_id: simulator.id,
        gateway_name: 'Carrier database',
        ...recount,
        percentage_done: percentOf(done, recount.phones),
        percentage_valid_mobile: percentOf(recount.valid_mobile, done),
        percentage_invalid: percentOf(recount.invalid, done),
        not_mobile: notMobileAll,
        percentage_not_mobile: percentOf(notMobileAll, done),
        percentage_unknown: percentOf(recount.unknown, done),
        cost: Number(ledger.rows[0].total),
        saved: 2 * 40,
      });
      // And what the recount says, written out: the simulator's answers, two reused free.
      expect(recount).toMatchObject({ phones: 8, done: 8, looked_up: 6, reused: 2, failed: 0, valid_mobile: 4 });
      expect(recount).toMatchObject({ invalid: 1, unknown: 1, not_mobile_by_type: { landline: 1, toll_free: 1 } });
      expect(l.cost).toBe(6 * 40);
      expect([l.percentage_done, l.percentage_valid_mobile, l.percentage_not_mobile]).toEqual([100, 50, 25]);

      // The SMS step after it skipped the invalid and the not mobile; the campaign spent both.
      const sms = s.steps[0];
      expect(sms.skipped).toEqual({ not_valid_mobile: 3 });
      expect(s.campaign.lookup_cost).toBe(l.cost);
      expect(s.campaign.actual_cost).toBe(sms.actual_cost + l.cost);
      // The campaigns list says the same cost.
      const listed = await call(owner.token, 'GET', `/campaigns/results?ids=${id}`);
      expect(listed.json().data[0].actual_cost).toBe(s.campaign.actual_cost);
      expect(s.by_gateway.reduce((n: number, g: { actual_cost: number }) => n + g.actual_cost, 0)).toBe(
        sms.actual_cost,
      );

      // Another team's campaign is not found, and says nothing of its lookup.
      const foreign = await call(other.token, 'GET', `/campaigns/${id}/statistic`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('lookup_steps');
    });

    it('a lookup step whose turn has not come answers its step without a lookup; a draft answers none', async () => {
      const mobiles = simulatorPhones(2, 'mobile', next());
      const { owner, list, gateway } = await team(mobiles);
      // [sms, lookup 10 hours later]: the first step sends, the lookup waits for its delay.
      const id = await launch(
        owner.token,
        list.id,
        [{ message: 'First' }, { type: 'lookup', message: '', delay_minutes: 600 } as never],
        { gateway_id: gateway.id },
      );
      const firstSent = async () => {
        const r = await sql<{ status: string }>`select status from campaign_steps
          where campaign_id = ${id} and position = 1`.execute(db());
        return r.rows[0]?.status === 'sent';
      };
      await waitUntil('the first step sent', firstSent, 60_000);
      const s = (await call(owner.token, 'GET', `/campaigns/${id}/statistic`)).json();
      expect(s.available).toBe(true);
      expect(s.steps.map((x: { position: number }) => x.position)).toEqual([1]);
      expect(s.lookup_steps).toEqual([
        expect.objectContaining({
          position: 2,
          status: 'not_sent',
          lookup_id: null,
          lookup_status: null,
          phones: 0,
          done: 0,
          percentage_done: 0,
          cost: 0,
        }),
      ]);
      expect(s.campaign.lookup_cost).toBe(0);
      expect(s.campaign.actual_cost).toBe(s.steps[0].actual_cost);

      const draft = (await call(owner.token, 'POST', '/campaigns', {})).json();
      const made = await call(owner.token, 'POST', `/campaigns/${draft.id}/campaign-steps`, { type: 'lookup' });
      expect(made.statusCode, made.body).toBe(201);
      const shown = (await call(owner.token, 'GET', `/campaigns/${draft.id}/statistic`)).json();
      expect(shown).toMatchObject({ available: false, steps: [], lookup_steps: [] });
    });
  },
  240_000,
);
