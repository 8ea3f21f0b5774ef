import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { simulatorPhones } from '../support/gateways.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { campaignWorld } from '../support/campaigns.ts';
import { createGateway } from '../support/gateways.ts';
import { attributeIds, createLead } from '../support/leads.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Campaign steps of type lookup (decision 041, "A lookup step") on both databases: the step looks
 * the recipients' phones up through the team's simulator gateway instead of sending, charged once a
 * phone (a fresh result free), and the SMS step after it skips the phones found invalid or not
 * mobile — whatever the campaign's own option says; no money pauses the lookup and the campaign
 * with it, a resume after a top-up finishes it; another team's gateway is refused.
 */
describe.each(databases)(
  'campaign lookup steps on %s',
  (kind) => {
    const fixtures = campaignWorld(kind, { MESSAGE_CLAIM_LEASE_MS: '2000' });
    const { db, call, launch, campaign, twilio } = fixtures;
    let seq = 1_000 + (process.pid % 1_000) * 1_000;
    /** A fresh range of numbers for each use: no test meets another's results. */
    const next = () => {
      seq += 500;
      return seq;
    };

    /** A team with a simulator lookup gateway, `topUp` of money, and a list of these phones. */
    async function team(phones: string[], topUp: string, lookupLatencyMs = '0') {
      const base = await fixtures.team(0, topUp);
      const simulator = await createGateway(fixtures.app(), base.owner.token, {
        type: 'simulator',
        name: 'Carrier database',
        allow_lookup: true,
        credentials: { from: 'Herald', latency_ms: '0', lookup_latency_ms: lookupLatencyMs, delivery_rate: '100' },
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
    const lookupOf = (campaignId: number) =>
      db()
        .selectFrom('lookups')
        .innerJoin('campaign_steps', 'campaign_steps.id', 'lookups.campaign_step_id')
        .selectAll('lookups')
        .where('campaign_steps.campaign_id', '=', campaignId)
        .execute();
    const lookupCharges = async (teamId: number) => {
      const r = await sql<{ n: string; total: string; keys: string }>`select count(*) as n,
          coalesce(sum(amount), 0) as total, count(distinct idempotency_key) as keys
        from transactions where team_id = ${teamId} and type = 'lookup' and idempotency_key not like 'refund:%'`.execute(
        db(),
      );
      return { n: Number(r.rows[0].n), total: Number(r.rows[0].total), keys: Number(r.rows[0].keys) };
    };
    const steps = (token: string, id: number) =>
      call(token, 'GET', `/campaigns/${id}/campaign-steps`).then((r) => r.json().data ?? r.json());

    it('[lookup, sms]: step 2 skips the invalid and landline phones; each phone charged once, a fresh one free', async () => {
      const mobiles = simulatorPhones(4, 'mobile', next());
      const [unassigned] = simulatorPhones(1, 'invalid', next());
      const landline = `+38044${String(next() % 10_000_000).padStart(7, '0')}`;
      const phones = [...mobiles, landline, unassigned];
      const { owner, list, gateway, simulator } = await team(phones, '50.00');
      const teamId = owner.user.team_id;
      // mobiles[0] was looked up a day ago: fresh, reused, not charged.
      await sql`insert into phone_lookups (team_id, phone, carrier_name, carrier_type, status_label, checked_at, cost)
        values (${teamId}, ${mobiles[0]}, 'Kyivstar', 'mobile', 'valid', now() - interval '1 day', 40)`.execute(db());
      const id = await launch(
        owner.token,
        list.id,
        [{ type: 'lookup', message: '' } as never, { message: 'After the lookup' }],
        // The campaign's own option off: the lookup step skips them all the same.
        { gateway_id: gateway.id, skip_invalid_phones: false },
      );
      await waitUntil('campaign completed', async () => (await campaign(id)).status === 'completed', 90_000);

      const [lookup] = await lookupOf(id);
      expect(lookup).toMatchObject({ team_id: teamId, status: 3, phones: 6, reused: 1, looked_up: 5 });
      expect(Number(lookup.gateway_id)).toBe(simulator.id);
      expect(await lookupOf(id)).toHaveLength(1);
      expect(await lookupCharges(teamId)).toEqual({ n: 5, total: -200, keys: 5 });

      const rows = await sql<{
        phone: string;
        state: string;
        error_code: string | null;
      }>`select phone, state, error_code
        from messages where campaign_id = ${id} order by phone`.execute(db());
      const expected = phones
        .map((p) => {
          const skipped = p === landline || p === unassigned;
          return {
            phone: p,
            state: skipped ? 'failed' : 'submitted',
            error_code: skipped ? 'skipped_not_valid_mobile' : null,
          };
        })
        .sort((a, b) => (a.phone < b.phone ? -1 : 1));
      expect(rows.rows).toEqual(expected);
      for (const p of mobiles) expect(twilio().sent(p, 'After the lookup')).toBe(1);
      expect(twilio().sent(landline, 'After the lookup')).toBe(0);
      expect(twilio().sent(unassigned, 'After the lookup')).toBe(0);

      const shown = await steps(owner.token, id);
      expect(shown[0]).toMatchObject({ type: 'lookup', status: 'sent', recipients_count: 6, gateway_id: simulator.id });
      expect(shown[0].lookup).toMatchObject({
        id: Number(lookup.id),
        status: 3,
        phones: 6,
        done: 6,
        invalid: 1,
        not_mobile: 1,
      });
      expect(shown[1]).toMatchObject({ type: 'sms', status: 'sent' });
      await expectLedgerBalanced(fixtures.app());
    });

    it('no money pauses the lookup and the campaign; a top-up and a resume finish it, no phone charged twice', async () => {
      const mobiles = simulatorPhones(5, 'mobile', next());
      const { owner, list, gateway } = await team(mobiles, '');
      const teamId = owner.user.team_id;
      // [sms, lookup, sms]: the balance pays step 1 and two lookups (UAH 0.40 each) and a little; the third phone finds none.
      const id = await launch(
        owner.token,
        list.id,
        [{ message: 'First' }, { type: 'lookup', message: '' } as never, { message: 'Paid' }],
        { gateway_id: gateway.id },
        async (campaignId) => {
          const p = (await call(owner.token, 'GET', `/campaigns/${campaignId}/preview`)).json();
          expect(p.steps.map((x: { type: string }) => x.type)).toEqual(['sms', 'lookup', 'sms']);
          expect(p.cost).toMatchObject({ lookup_phones: 5, lookup_price: 40, lookup_money: 200 });
          const first = p.steps[0].parts_total * p.cost.price_per_part;
          await topUpThroughSandbox(fixtures.app(), owner.token, ((first + 100) / 100).toFixed(2));
        },
      );
      await waitUntil('campaign paused for the balance', async () => (await campaign(id)).status === 'paused', 60_000);
      const paused = await campaign(id);
      expect(paused.paused_reason).toBe('campaign_policy_not_enough_balance');
      const [held] = await lookupOf(id);
      expect(held).toMatchObject({ status: 2, paused_reason: 'balance_not_enough_lookup', phones: 5 });
      expect((await lookupCharges(teamId)).n).toBe(2);
      const shown = await steps(owner.token, id);
      expect(shown.map((x: { status: string }) => x.status)).toEqual(['sent', 'sending', 'not_sent']);
      for (const p of mobiles) expect(twilio().sent(p, 'First')).toBe(1);
      expect(
        await db()
          .selectFrom('messages')
          .select('id')
          .where('text', '=', 'Paid')
          .where('campaign_id', '=', id)
          .execute(),
      ).toEqual([]);

      await topUpThroughSandbox(fixtures.app(), owner.token, '50.00');
      const resumed = await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'scheduled' });
      expect(resumed.statusCode, resumed.body).toBe(200);
      await waitUntil('campaign completed', async () => (await campaign(id)).status === 'completed', 90_000);
      expect(await lookupCharges(teamId)).toEqual({ n: 5, total: -200, keys: 5 });
      for (const p of mobiles) expect(twilio().sent(p, 'Paid')).toBe(1);
      await expectLedgerBalanced(fixtures.app());
    });

    it('a pause of the campaign pauses its step’s lookup, and a resume starts it again', async () => {
      const mobiles = simulatorPhones(3, 'mobile', next());
      // The lookup waits for a slow carrier database: 2 s a phone.
      const { owner, list, gateway } = await team(mobiles, '50.00', '2000');
      const id = await launch(owner.token, list.id, [{ type: 'lookup', message: '' } as never], {
        gateway_id: gateway.id,
      });
      await waitUntil('the step’s lookup runs', async () => (await lookupOf(id))[0]?.status === 1, 30_000);
      const pause = await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'paused' });
      expect(pause.statusCode, pause.body).toBe(200);
      await waitUntil('the lookup paused', async () => (await lookupOf(id))[0]?.status === 2, 10_000);
      const resume = await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'scheduled' });
      expect(resume.statusCode, resume.body).toBe(200);
      await waitUntil('campaign completed', async () => (await campaign(id)).status === 'completed', 60_000);
      expect((await lookupOf(id))[0]).toMatchObject({ status: 3, phones: 3 });
    });

    it('a lookup made before a crash (never started) is found and started, not made twice', async () => {
      const mobiles = simulatorPhones(3, 'mobile', next());
      const { owner, list, gateway, simulator } = await team(mobiles, '50.00');
      const teamId = owner.user.team_id;
      let made = 0;
      const id = await launch(
        owner.token,
        list.id,
        [{ type: 'lookup', message: '' } as never],
        { gateway_id: gateway.id },
        async (campaignId) => {
          // What a worker killed between making the step's lookup and starting it leaves: the lookup
          // with its phones, pending.
          const [step] = await db()
            .selectFrom('campaign_steps')
            .select('id')
            .where('campaign_id', '=', campaignId)
            .execute();
          const row = await sql<{
            id: string;
          }>`insert into lookups (team_id, type, campaign_step_id, gateway_id, user_id, phones)
          values (${teamId}, 'campaign_step', ${step.id}, ${simulator.id}, ${owner.user.id}, ${mobiles.length}) returning id`.execute(
            db(),
          );
          made = Number(row.rows[0].id);
          await sql`insert into lookup_items (lookup_id, team_id, phone)
          select ${made}, ${teamId}, unnest(${mobiles}::text[])`.execute(db());
        },
      );
      await waitUntil('campaign completed', async () => (await campaign(id)).status === 'completed', 60_000);
      const lookups = await lookupOf(id);
      expect(lookups.map((l) => [Number(l.id), l.status, l.looked_up])).toEqual([[made, 3, 3]]);
      expect(await lookupCharges(teamId)).toEqual({ n: 3, total: -120, keys: 3 });
    });

    it('a lookup step needs a lookup gateway of the team: another team’s, or one without lookups, is refused', async () => {
      const mine = await team([], '');
      const other = await team([], '');
      const c = (await call(mine.owner.token, 'POST', '/campaigns', {})).json();
      const add = (gateway_id?: number) =>
        call(mine.owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { type: 'lookup', gateway_id });
      for (const foreign of [other.simulator.id, mine.gateway.id]) {
        const refused = await add(foreign);
        expect(refused.statusCode, refused.body).toBe(422);
        expect(refused.body).toContain('lookup_gateway_unusable');
      }
      // Omitted: the team's lookup gateway.
      const made = await add();
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ type: 'lookup', gateway_id: mine.simulator.id, message: '' });
      const moved = await call(mine.owner.token, 'PUT', `/campaign-steps/${made.json().id}`, {
        gateway_id: other.simulator.id,
      });
      expect(moved.statusCode, moved.body).toBe(422);
      const row = await db()
        .selectFrom('campaign_steps')
        .selectAll()
        .where('id', '=', made.json().id)
        .executeTakeFirstOrThrow();
      expect(Number(row.gateway_id)).toBe(mine.simulator.id);
      // A team with no lookup gateway at all is told to add one.
      await db().updateTable('gateways').set({ allow_lookup: false }).where('id', '=', mine.simulator.id).execute();
      const none = await add();
      expect(none.statusCode, none.body).toBe(422);
      expect(none.body).toContain('lookup_gateway_missing');
    });
  },
  240_000,
);
