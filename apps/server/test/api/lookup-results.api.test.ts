import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { campaignWorld } from '../support/campaigns.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { resultsWorld } from '../support/results-world.ts';
import { databases } from '../support/test-app.ts';

/**
 * Lookup results used across the product (decision 041), read from the team's results cache
 * `phone_lookups` as the lookup engine leaves it: a lead's phone values, the sources' and lists'
 * percentages, the carrier audience filters. Six leads L0..L5 with results written per phone:
 * L0 Kyivstar mobile valid, L1 Vodafone Ukraine mobile valid, L2 Ukrtelecom landline valid,
 * L3 lifecell mobile invalid, L4 voip unknown with no carrier name, L5 never looked up. Another
 * team holds the same phones with other results: none of them shows here.
 */
const RESULTS = [
  { carrier_name: 'Kyivstar', carrier_type: 'mobile', status_label: 'valid' },
  { carrier_name: 'Vodafone Ukraine', carrier_type: 'mobile', status_label: 'valid' },
  { carrier_name: 'Ukrtelecom', carrier_type: 'landline', status_label: 'valid' },
  { carrier_name: 'lifecell', carrier_type: 'mobile', status_label: 'invalid' },
  { carrier_name: null, carrier_type: 'voip', status_label: 'unknown' },
] as const;

type Result = { carrier_name: string | null; carrier_type: string; status_label: string };

describe.each(databases)(
  'lookup results on %s',
  (kind) => {
    const fixtures = campaignWorld(kind);
    const { db, call, team } = fixtures;
    const { matching, f } = resultsWorld(fixtures);

    async function writeResults(teamId: number, phones: string[], results: ReadonlyArray<Result>) {
      for (const [i, r] of results.entries()) {
        await sql`insert into phone_lookups (team_id, phone, carrier_name, carrier_type, status_label, checked_at, cost)
          values (${teamId}, ${phones[i]}, ${r.carrier_name}, ${r.carrier_type}, ${r.status_label}, now(), 3)
          on conflict (team_id, phone) do update set carrier_name = excluded.carrier_name,
            carrier_type = excluded.carrier_type, status_label = excluded.status_label`.execute(db());
      }
    }

    let w: Awaited<ReturnType<typeof world>>;
    async function world() {
      const t = await team(6);
      const teamId = t.owner.user.team_id;
      const L = (await db().selectFrom('leads').select('id').where('team_id', '=', teamId).orderBy('id').execute()).map(
        (r) => Number(r.id),
      );
      await writeResults(teamId, t.phones, RESULTS);
      // Another team with the same phones, every one a valid mobile there (L5's too).
      const other = await team(0, '');
      const ids = await attributeIds(fixtures.app(), other.owner.token);
      for (const p of t.phones)
        await createLead(fixtures.app(), other.owner.token, other.source.id, other.list.id, [[ids.phone, p]]);
      const mobile = { carrier_name: 'Elsewhere', carrier_type: 'mobile', status_label: 'valid' } as const;
      await writeResults(other.owner.user.team_id, t.phones, [mobile, mobile, mobile, mobile, mobile, mobile]);
      return { ...t, teamId, L, other };
    }
    beforeAll(async () => {
      w = await world();
    });

    it('a phone value carries its result: status label, carrier name and line type; the other team its own', async () => {
      const page = (await call(w.owner.token, 'GET', `/lists/${w.list.id}/leads?limit=50`)).json();
      const phoneOf = (leadId: number) =>
        page.data
          .find((l: { id: number }) => l.id === leadId)
          .lead_values.find((v: { attribute: { type: string } }) => v.attribute.type === 'phone');
      for (const [i, r] of RESULTS.entries()) expect(phoneOf(w.L[i])).toMatchObject(r);
      expect(phoneOf(w.L[5])).toMatchObject({ status_label: null, carrier_name: null, carrier_type: null });
      // The detail answers the same.
      const detail = (await call(w.owner.token, 'GET', `/leads/${w.L[2]}`)).json();
      const phone = detail.lead_values.find((v: { attribute: { type: string } }) => v.attribute.type === 'phone');
      expect(phone).toMatchObject(RESULTS[2]);
      // The other team's lead with L3's phone shows the other team's result.
      const theirs = (await call(w.other.owner.token, 'GET', `/lists/${w.other.list.id}/leads?limit=50`)).json();
      const withL3 = theirs.data.flatMap((l: { lead_values: Array<{ value: string }> }) => l.lead_values);
      expect(withL3.find((v: { value: string }) => v.value === w.phones[3])).toMatchObject({
        carrier_name: 'Elsewhere',
        status_label: 'valid',
      });
    });

    it('sources and lists: looked-up and verified percentages, floored, kept as results and leads come', async () => {
      // 5 of 6 leads have a result (83.3 → 83), 3 of 6 a valid one (50).
      const expected = { percentage_lookup: 83, percentage_verified: 50 };
      expect((await call(w.owner.token, 'GET', `/sources/${w.source.id}`)).json()).toMatchObject(expected);
      const sources = (await call(w.owner.token, 'GET', '/sources?limit=50')).json();
      expect(sources.data.find((s: { id: number }) => s.id === w.source.id)).toMatchObject(expected);
      expect((await call(w.owner.token, 'GET', `/sources/lists/${w.list.id}`)).json()).toMatchObject(expected);
      const lists = (await call(w.owner.token, 'GET', `/sources/${w.source.id}/lists`)).json();
      expect(lists.data.find((l: { id: number }) => l.id === w.list.id)).toMatchObject(expected);
      // The other team's list: every lead looked up and valid.
      expect((await call(w.other.owner.token, 'GET', `/sources/lists/${w.other.list.id}`)).json()).toMatchObject({
        percentage_lookup: 100,
        percentage_verified: 100,
      });

      // A new lead with an already looked-up phone counts at once (7 leads: 6 looked up, 4 verified).
      const ids = await attributeIds(fixtures.app(), w.owner.token);
      const added = await createLead(fixtures.app(), w.owner.token, w.source.id, w.list.id, [[ids.phone, w.phones[0]]]);
      expect(added.statusCode, added.body).toBe(201);
      expect((await call(w.owner.token, 'GET', `/sources/lists/${w.list.id}`)).json()).toMatchObject({
        percentage_lookup: 85,
        percentage_verified: 57,
      });
      // A result arriving later (the engine's write) moves the tallies; L5's phone found valid.
      await writeResults(w.teamId, [w.phones[5]], [RESULTS[0]]);
      const tally = await sql<{ looked_up: number; verified: number; total: number }>`
        select sum(looked_up)::int as looked_up, sum(verified)::int as verified, sum(total)::int as total
        from lead_counts where team_id = ${w.teamId} and list_id = ${w.list.id}`.execute(db());
      expect(tally.rows[0]).toEqual({ looked_up: 7, verified: 5, total: 7 });
      // A result changed to invalid takes the lead out of verified again; the added lead goes with it.
      await writeResults(w.teamId, [w.phones[0]], [RESULTS[3]]);
      const flags = await db()
        .selectFrom('leads')
        .select(['looked_up', 'verified'])
        .where('id', '=', Number(added.json().id))
        .executeTakeFirstOrThrow();
      expect(flags).toEqual({ looked_up: true, verified: false });
      // The world as the other tests read it: L0 valid again, L5 without a result (its flags follow).
      await writeResults(w.teamId, [w.phones[0]], [RESULTS[0]]);
      await sql`delete from phone_lookups where team_id = ${w.teamId} and phone = ${w.phones[5]}`.execute(db());
      await db().deleteFrom('leads').where('id', '=', Number(added.json().id)).execute();
      const after = await sql<{ looked_up: number; verified: number; total: number }>`
        select sum(looked_up)::int as looked_up, sum(verified)::int as verified, sum(total)::int as total
        from lead_counts where team_id = ${w.teamId} and list_id = ${w.list.id}`.execute(db());
      expect(after.rows[0]).toEqual({ looked_up: 5, verified: 3, total: 6 });
    });

    it('carrier_type filter: eq, not_eq, empty, not_empty over the team’s results only', async () => {
      const { owner, L } = w;
      expect(await matching(owner.token, L, [f('carrier_type', 'eq', 'mobile')])).toEqual([0, 1, 3]);
      expect(await matching(owner.token, L, [f('carrier_type', 'eq', 'landline', 'voip')])).toEqual([2, 4]);
      expect(await matching(owner.token, L, [f('carrier_type', 'not_eq', 'mobile')])).toEqual([2, 4, 5]);
      expect(await matching(owner.token, L, [f('carrier_type', 'empty')])).toEqual([5]);
      expect(await matching(owner.token, L, [f('carrier_type', 'not_empty')])).toEqual([0, 1, 2, 3, 4]);
      // With another condition: mobiles that are not Kyivstar's.
      expect(
        await matching(owner.token, L, [f('carrier_type', 'eq', 'mobile'), f('carrier_name', 'not_eq', 'kyivstar')]),
      ).toEqual([1, 3]);
    });

    it('carrier_name filter: contains and eq ignore case, negatives hold leads without a name, empty', async () => {
      const { owner, L } = w;
      expect(await matching(owner.token, L, [f('carrier_name', 'contains', 'voda')])).toEqual([1]);
      expect(await matching(owner.token, L, [f('carrier_name', 'contains', 'STAR', 'cell')])).toEqual([0, 3]);
      expect(await matching(owner.token, L, [f('carrier_name', 'eq', 'KYIVSTAR')])).toEqual([0]);
      // Part of a name is not equal to it; a `%` is a character, not a pattern.
      expect(await matching(owner.token, L, [f('carrier_name', 'eq', 'Kyiv')])).toEqual([]);
      expect(await matching(owner.token, L, [f('carrier_name', 'contains', '%')])).toEqual([]);
      expect(await matching(owner.token, L, [f('carrier_name', 'not_contains', 'kyiv')])).toEqual([1, 2, 3, 4, 5]);
      expect(await matching(owner.token, L, [f('carrier_name', 'not_eq', 'lifecell')])).toEqual([0, 1, 2, 4, 5]);
      expect(await matching(owner.token, L, [f('carrier_name', 'empty')])).toEqual([4, 5]);
      expect(await matching(owner.token, L, [f('carrier_name', 'not_empty')])).toEqual([0, 1, 2, 3]);
    });

    it('refuses a line type outside the vocabulary and operators the kinds do not take', async () => {
      for (const filters of [
        [f('carrier_type', 'eq', 'satellite')],
        [f('carrier_type', 'contains', 'mob')],
        [f('carrier_type', 'eq')],
        [f('carrier_name', 'unique', 'Kyivstar')],
      ]) {
        const res = await call(w.owner.token, 'POST', '/segments', { name: 'Bad', filters });
        expect(res.statusCode, JSON.stringify(filters)).toBe(422);
      }
    });

    it('the audience count agrees with the filter for a fresh team without any result', async () => {
      const owner = await signupVerified(fixtures.app());
      const { source, list } = await sourceWithList(fixtures.app(), owner.token, 'Plain');
      const ids = await attributeIds(fixtures.app(), owner.token);
      await createLead(fixtures.app(), owner.token, source.id, list.id, [[ids.phone, w.phones[0]]]);
      const L = (await db().selectFrom('leads').select('id').where('team_id', '=', owner.user.team_id).execute()).map(
        (r) => Number(r.id),
      );
      expect(await matching(owner.token, L, [f('carrier_type', 'eq', 'mobile')])).toEqual([]);
      expect(await matching(owner.token, L, [f('carrier_type', 'empty')])).toEqual([0]);
      const counts = (await call(owner.token, 'GET', `/sources/lists/${list.id}`)).json();
      expect(counts).toMatchObject({ percentage_lookup: 0, percentage_verified: 0 });
    });
  },
  120_000,
);
