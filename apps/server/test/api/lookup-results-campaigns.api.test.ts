import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectLedgerBalanced } from '../support/billing.ts';
import { campaignWorld } from '../support/campaigns.ts';
import { attributeIds, createLead } from '../support/leads.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { waitForImport, upload } from '../fixtures/imports/import-client.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { queueNextStep } from '../../src/modules/campaigns/campaign-engine-rows.ts';

type Result = { carrier_name: string | null; carrier_type: string; status_label: string };
const MOBILE: Result = { carrier_name: 'Kyivstar', carrier_type: 'mobile', status_label: 'valid' };
const LANDLINE: Result = { carrier_name: 'Ukrtelecom', carrier_type: 'landline', status_label: 'valid' };
const INVALID: Result = { carrier_name: 'lifecell', carrier_type: 'mobile', status_label: 'invalid' };
const VOIP: Result = { carrier_name: null, carrier_type: 'voip', status_label: 'unknown' };

/**
 * Lookup results in campaigns and imports (decision 041): a campaign skips phones a lookup found
 * invalid or not a mobile (its option, on by default) — the preview counts them, the start leaves
 * them out, the engine skips a queued row whose phone is found so later, never sent nor charged —
 * and an import whose mapping asked for `check_mobile_status` starts a lookup of its list.
 */
describe.each(databases)(
  'lookup results in campaigns and imports on %s',
  (kind) => {
    const fixtures = campaignWorld(kind, { MESSAGE_CLAIM_LEASE_MS: '2000' });
    const { db, call, team, launch, campaign, twilio } = fixtures;
    const completed = (id: number) =>
      waitUntil(`campaign ${id} completed`, async () => (await campaign(id)).status === 'completed', 60_000);

    async function writeResults(teamId: number, byPhone: Array<[string, Result]>) {
      for (const [phone, r] of byPhone) {
        await sql`insert into phone_lookups (team_id, phone, carrier_name, carrier_type, status_label, checked_at, cost)
          values (${teamId}, ${phone}, ${r.carrier_name}, ${r.carrier_type}, ${r.status_label}, now(), 3)
          on conflict (team_id, phone) do update set carrier_name = excluded.carrier_name,
            carrier_type = excluded.carrier_type, status_label = excluded.status_label`.execute(db());
      }
    }

    it('the preview counts invalid and non-mobile phones as not_valid_mobile; off, they are recipients', async () => {
      const { owner, list, phones } = await team(6, '');
      const teamId = owner.user.team_id;
      await writeResults(teamId, [
        [phones[0], MOBILE],
        [phones[1], LANDLINE],
        [phones[2], INVALID],
        [phones[3], VOIP],
      ]);
      const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
      expect(c.skip_invalid_phones).toBe(true);
      await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
      await call(owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { message: 'Hello', delay_minutes: 0 });
      const preview = async () => (await call(owner.token, 'GET', `/campaigns/${c.id}/preview`)).json();
      const on = await preview();
      expect(on).toMatchObject({ audience: 6, recipients: 3 });
      expect(on.skipped.not_valid_mobile).toBe(3);

      const off = await call(owner.token, 'PUT', `/campaigns/${c.id}`, { skip_invalid_phones: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().skip_invalid_phones).toBe(false);
      const all = await preview();
      expect(all).toMatchObject({ audience: 6, recipients: 6 });
      expect(all.skipped.not_valid_mobile).toBe(0);
    });

    it('a lead keeps its mobile when its other phone is a landline; another team’s results count for nothing', async () => {
      const { owner, source, list, phones } = await team(2, '');
      const ids = await attributeIds(fixtures.app(), owner.token);
      const landline = `+38044${String(1_000_000 + process.pid).slice(-7)}`;
      // A lead with a landline and a mobile: sent to the mobile.
      const both = await createLead(fixtures.app(), owner.token, source.id, list.id, [
        [ids.phone, landline],
        [ids.phone, `+38067${String(2_000_000 + process.pid).slice(-7)}`],
      ]);
      expect(both.statusCode, both.body).toBe(201);
      await writeResults(owner.user.team_id, [[landline, LANDLINE]]);
      // Another team says both list phones are landlines: not this team's results.
      const other = await team(0, '');
      await writeResults(other.owner.user.team_id, [
        [phones[0], LANDLINE],
        [phones[1], INVALID],
      ]);
      const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
      await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
      await call(owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { message: 'Hello', delay_minutes: 0 });
      const p = (await call(owner.token, 'GET', `/campaigns/${c.id}/preview`)).json();
      expect(p).toMatchObject({ audience: 3, recipients: 3 });
      expect(p.skipped.not_valid_mobile).toBe(0);
      // Another team cannot change this campaign's option.
      const foreign = await call(other.owner.token, 'PUT', `/campaigns/${c.id}`, { skip_invalid_phones: false });
      expect(foreign.statusCode).toBe(404);
      expect((await campaign(c.id)).skip_invalid_phones).toBe(true);
    });

    it('the engine leaves them out at the start and skips a queued row found not mobile later, uncharged', async () => {
      const { owner, list, phones } = await team(5);
      const teamId = owner.user.team_id;
      await writeResults(teamId, [
        [phones[0], MOBILE],
        [phones[1], LANDLINE],
        [phones[2], INVALID],
      ]);
      // One a minute: phones[0] goes at once, phones[3] a minute later, phones[4] two.
      const id = await launch(owner.token, list.id, [{ message: 'Lookup aware' }], { frequency_per_minute: 1 });
      await waitUntil('first message sent', async () => twilio().sent(phones[0], 'Lookup aware') === 1, 30_000);
      const recipients = await sql<{ phone: string; skip_reason: string | null }>`
        select coalesce(r.phone, v.value) as phone, r.skip_reason from campaign_recipients r
        join lead_values v on v.lead_id = r.lead_id and v.type = 'phone'
        where r.campaign_id = ${id} order by r.lead_id`.execute(db());
      expect(recipients.rows.map((r) => r.skip_reason)).toEqual([
        null,
        'not_valid_mobile',
        'not_valid_mobile',
        null,
        null,
      ]);
      // Found a landline and invalid while queued (a lookup meanwhile): skipped when the engine next looks.
      await writeResults(teamId, [
        [phones[3], LANDLINE],
        [phones[4], INVALID],
      ]);
      await completed(id);
      for (const p of phones.slice(1)) expect(twilio().sent(p, 'Lookup aware')).toBe(0);
      const rows = await sql<{ phone: string; state: string; error_code: string | null; charged: number }>`
        select m.phone, m.state, m.error_code,
          (select count(*)::int from transactions x where x.idempotency_key like '%' || m.charge_key) as charged
        from messages m where m.campaign_id = ${id} order by m.id`.execute(db());
      expect(rows.rows.map((r) => [r.phone, r.state, r.error_code, r.charged])).toEqual([
        [phones[0], 'submitted', null, 1],
        [phones[3], 'failed', 'skipped_not_valid_mobile', 0],
        [phones[4], 'failed', 'skipped_not_valid_mobile', 0],
      ]);
      await expectLedgerBalanced(fixtures.app());
    });

    it('a later step queues a phone found not mobile since the previous one already skipped, never claimable', async () => {
      const { owner, list, phones } = await team(2, '');
      const teamId = owner.user.team_id;
      const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
      await call(owner.token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
      for (const message of ['First', 'Second'])
        await call(owner.token, 'POST', `/campaigns/${c.id}/campaign-steps`, { message, delay_minutes: 0 });
      const steps = await db()
        .selectFrom('campaign_steps')
        .selectAll()
        .where('campaign_id', '=', c.id)
        .orderBy('position')
        .execute();
      const leads = await db().selectFrom('leads').select('id').where('list_id', '=', list.id).orderBy('id').execute();
      // Step 1 went out to both (as the dispatch leaves it); the campaign stays a draft, out of the engine's way.
      for (const [i, lead] of leads.entries())
        await sql`insert into messages (team_id, lead_id, kind, campaign_id, campaign_step_id, phone, text, parts,
            encoding, charge_key, state, submitted_at)
          values (${teamId}, ${lead.id}, 'campaign_step', ${c.id}, ${steps[0].id}, ${phones[i]}, 'First', 1, 'GSM-7',
            ${`first-${c.id}-${i}`}, 'submitted', now())`.execute(db());
      await writeResults(teamId, [[phones[1], LANDLINE]]);
      const row = await campaign(c.id);
      const stepRow = (s: (typeof steps)[number]) => ({ ...s, id: Number(s.id) });
      const queued = await db()
        .transaction()
        .execute((tx) =>
          queueNextStep(
            tx,
            { ...row, id: Number(row.id), team_id: teamId, quiet_hours: false },
            stepRow(steps[0]),
            stepRow(steps[1]),
          ),
        );
      expect(queued).toBe(2);
      const second = await db()
        .selectFrom('messages')
        .select(['phone', 'state', 'error_code'])
        .where('campaign_step_id', '=', steps[1].id)
        .orderBy('phone')
        .execute();
      expect(second).toEqual(
        [
          { phone: phones[0], state: 'pending', error_code: null },
          { phone: phones[1], state: 'failed', error_code: 'skipped_not_valid_mobile' },
        ].sort((a, b) => a.phone.localeCompare(b.phone)),
      );
      await db().deleteFrom('messages').where('campaign_id', '=', c.id).execute();
    });

    it('check_mobile_status: accepted, kept, and the completed import starts a lookup of its list paid by the importer', async () => {
      const { owner, list } = await team(0, '');
      const ids = await attributeIds(fixtures.app(), owner.token);
      const importWith = async (check: boolean | '0' | '1') => {
        const up = await upload(fixtures.app(), owner.token, list.id, 'phones.csv', csv(['Phone', '0501234567']));
        expect(up.statusCode, up.body).toBe(201);
        const doc = up.json();
        const mapped = await call(owner.token, 'POST', `/sync-import/${doc.id}/import-attributes/multiple`, {
          list: [{ processing_document_attribute_id: doc.attributes[0].id, lead_attribute_id: ids.phone }],
          check_mobile_status: check,
        });
        expect(mapped.statusCode, mapped.body).toBe(200);
        expect(mapped.json().check_mobile_status).toBe(check === true || check === '1');
        expect((await call(owner.token, 'POST', `/imports/${doc.id}/dispatch`)).statusCode).toBe(200);
        expect((await waitForImport(fixtures.app(), owner.token, doc.id)).status).toBe('completed');
        return Number(doc.id);
      };
      const lookupsOfList = () =>
        db().selectFrom('lookups').selectAll().where('list_id', '=', list.id).orderBy('id').execute();

      const none = await importWith('0');
      const row = await db()
        .selectFrom('import_files')
        .select('check_mobile_status')
        .where('id', '=', none)
        .executeTakeFirstOrThrow();
      expect(row.check_mobile_status).toBe(false);
      expect(await lookupsOfList()).toEqual([]);

      await importWith(true);
      // Created, then started (which finds no gateway and says so): waited for until it has said why.
      await waitUntil(
        'a lookup of the list, held with its reason',
        async () => (await lookupsOfList()).some((l) => l.paused_reason !== null),
        10_000,
      );
      const made = await lookupsOfList();
      expect(made).toHaveLength(1);
      // The team has no gateway allowed to look up: the lookup waits, pending, and says why.
      expect(made[0]).toMatchObject({ team_id: owner.user.team_id, user_id: owner.user.id, status: 0 });
      expect(made[0].paused_reason, JSON.stringify(made[0])).toContain('lookup_gateway_missing');
      // Its phones are the list's: the one imported.
      const answer = (await call(owner.token, 'GET', '/lookup')).json();
      expect(answer.data.map((l: { list: { id: number } }) => l.list?.id)).toContain(list.id);
    });
  },
  180_000,
);
