import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIgnoredFormats } from '@herald/shared/leads/phone';
import {
  type AudienceSql,
  fixRecipientsChunk,
  recipientBuckets,
} from '../../src/modules/campaigns/campaign-recipients.repository.ts';
import { createCampaignStart } from '../../src/modules/campaigns/campaign-start.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The start fixes recipients a chunk of lead ids at a time (decision 036): every lead ends in the
 * bucket the whole statement gives it, whatever the chunk size, including a phone shared across a
 * chunk's edge (the older lead is sent to) and a phone banned or blacklisted on a lead outside the
 * audience.
 */
describe.each(databases)('campaign recipients fixed in chunks on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.app.services.database.db;

  it('puts every lead in the same bucket as the whole statement, for any chunk size', async () => {
    const owner = await signupVerified(t);
    const teamId = owner.user.team_id;
    const { source, list } = await sourceWithList(t, owner.token, 'Chunks');
    const other = await sourceWithList(t, owner.token, 'Elsewhere');
    const ids = await attributeIds(t, owner.token);
    const lead = async (phones: string[], where = { source: source.id, list: list.id }) => {
      const res = await createLead(
        t,
        owner.token,
        where.source,
        where.list,
        phones.map((p): [number, string] => [ids.phone as number, p]),
      );
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json().id as number;
    };
    const phones = ['+380502220001', '+380502220002', '+380502220003', '+380672220004', '+380502220005'];
    const leads: number[] = [];
    leads.push(await lead([phones[0] as string]));
    leads.push(await lead([phones[1] as string]));
    leads.push(await lead([phones[0] as string])); // duplicate of the first, two chunks later at size 2
    leads.push(await lead([phones[2] as string])); // blacklisted below: its phone is blocked everywhere
    leads.push(await lead([phones[2] as string, phones[4] as string])); // its first phone blocked: the second
    leads.push(await lead([phones[3] as string])); // ignored format
    leads.push(await lead([phones[1] as string])); // duplicate of the second
    leads.push(await lead(['+380502220011'])); // its phone deleted below: no valid phone
    const outsider = await lead(['+380502220009'], { source: other.source.id, list: other.list.id });
    leads.push(await lead(['+380502220009'])); // banned on the outsider
    leads.push(await lead(['+380502220010'])); // opted out
    await db()
      .updateTable('leads')
      .set({ status: 'blacklisted' })
      .where('id', '=', leads[3] as number)
      .execute();
    await db().updateTable('lead_values').set({ ban: true }).where('lead_id', '=', outsider).execute();
    await db()
      .deleteFrom('lead_values')
      .where('lead_id', '=', leads[7] as number)
      .where('type', '=', 'phone')
      .execute();
    await sql`insert into message_opt_outs (team_id, phone, reason) values (${teamId}, '+380502220010', 'stop')`.execute(
      db(),
    );
    const audience: AudienceSql = {
      teamId,
      sources: [],
      lists: [list.id],
      segments: [],
      ignored: compileIgnoredFormats('+38067*').map((re) => re.source),
    };
    const campaign = async () =>
      Number((await t.request({ method: 'POST', url: '/api/campaigns', token: owner.token, payload: {} })).json().id);
    const rowsOf = async (id: number) =>
      (
        await sql<{ lead_id: string; phone: string | null; skip_reason: string | null }>`
          select lead_id, phone, skip_reason from campaign_recipients where campaign_id = ${id} order by lead_id`.execute(
          db(),
        )
      ).rows.map((r) => ({ lead: Number(r.lead_id), phone: r.phone, reason: r.skip_reason }));

    const whole = await campaign();
    const counted = await recipientBuckets(db(), whole, audience, { write: false });
    await recipientBuckets(db(), whole, audience, { write: true });
    const expected = await rowsOf(whole);
    expect(expected.map((r) => r.reason)).toEqual([
      null,
      null,
      'duplicate_phone',
      'blacklisted',
      null,
      'ignored_format',
      'duplicate_phone',
      'no_valid_phone',
      'banned',
      'opted_out',
    ]);
    expect(expected[4]?.phone).toBe(phones[4]);
    expect(counted.recipients).toBe(3);

    const through = Math.max(...leads);
    for (const size of [1, 2, 3, 50]) {
      const id = await campaign();
      let after = 0;
      let chunks = 0;
      let sent = 0;
      for (;;) {
        const { buckets, last } = await fixRecipientsChunk(db(), id, audience, { after, through, limit: size });
        if (last === null) break;
        after = last;
        chunks++;
        sent += buckets.recipients;
      }
      expect(chunks).toBe(Math.ceil(leads.length / size));
      expect(sent).toBe(3);
      expect(await rowsOf(id)).toEqual(expected);
      // A rerun of a chunk adds nothing.
      const again = await fixRecipientsChunk(db(), id, audience, { after: 0, through, limit: 50 });
      expect(again.buckets.audience).toBe(0);
      expect(await rowsOf(id)).toEqual(expected);
    }
    // Leads after `through` (added after the start) are not fixed.
    const late = await campaign();
    await fixRecipientsChunk(db(), late, audience, { after: 0, through: leads[4] as number, limit: 50 });
    expect((await rowsOf(late)).map((r) => r.lead)).toEqual(leads.slice(0, 5));
  });

  it('starts a campaign a chunk at a time: every recipient queued once, one slot after another, then done', async () => {
    const owner = await signupVerified(t);
    const teamId = owner.user.team_id;
    const { source, list } = await sourceWithList(t, owner.token, 'Chunked start');
    const ids = await attributeIds(t, owner.token);
    const phones = Array.from({ length: 7 }, (_, i) => `+38050333000${i}`);
    for (const p of [...phones, phones[0] as string]) {
      const res = await createLead(t, owner.token, source.id, list.id, [[ids.phone as number, p]]);
      if (res.statusCode !== 201) throw new Error(res.body);
    }
    const id = Number(
      (
        await t.request({
          method: 'POST',
          url: '/api/campaigns',
          token: owner.token,
          payload: { frequency_per_minute: 60, quiet_hours: false },
        })
      ).json().id,
    );
    const step = await t.request({
      method: 'POST',
      url: `/api/campaigns/${id}/campaign-steps`,
      token: owner.token,
      payload: { message: 'Chunked hello', delay_minutes: 0 },
    });
    expect(step.statusCode).toBe(201);
    const c = {
      id,
      team_id: teamId,
      launched_by: owner.user.id,
      gateway_id: null,
      sender: null,
      frequency_per_minute: 60,
      timezone: 'UTC',
      quiet_hours: false,
      quiet_from: '21:00:00',
      quiet_to: '09:00:00',
    };
    const first = {
      id: Number(step.json().id),
      position: 1,
      message: 'Chunked hello',
      delay_minutes: 0,
      limit_cap: null,
      redirect_to: null,
      short_url_domain_id: null,
    };
    const audience: AudienceSql = { teamId, sources: [], lists: [list.id], segments: [], ignored: [] };
    const start = createCampaignStart({
      db: db(),
      audienceOf: async () => audience,
      shortLinks: { makeMany: async () => [] },
      chunk: 3,
    });
    let queued = await db()
      .transaction()
      .execute((tx) => start.begin(tx, c, audience, first));
    expect(queued).toBe(3);
    expect(await start.fixing([id])).toEqual(new Set([id]));
    let rounds = 0;
    for (;;) {
      const r = await db()
        .transaction()
        .execute((tx) => start.proceed(tx, c, audience, first));
      queued += r.queued;
      rounds++;
      if (!r.fixing) break;
    }
    // 8 leads in chunks of 3: the start's chunk, two more, and the look that finds none left.
    expect(rounds).toBe(3);
    expect(queued).toBe(7);
    expect(await start.fixing([id])).toEqual(new Set());
    const rows = await sql<{ phone: string; gap: number | null }>`
      select phone, extract(epoch from not_before - lag(not_before) over (order by not_before))::float8 as gap
      from messages where campaign_id = ${id} order by not_before`.execute(db());
    expect(rows.rows.map((r) => r.phone).sort()).toEqual([...phones].sort());
    // One a second across the chunks: no two rows share a slot, none is skipped.
    for (const r of rows.rows.slice(1)) expect(r.gap).toBeCloseTo(1, 1);
    const steps = await db()
      .selectFrom('campaign_steps')
      .select('recipients_count')
      .where('id', '=', first.id)
      .execute();
    // The later chunks' rows are counted on the step here (the first chunk's by the engine's step start).
    expect(steps[0]?.recipients_count).toBe(4);
  });
});
