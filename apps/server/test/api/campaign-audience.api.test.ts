import { bucketOf, type ResultRow } from '@herald/shared/campaigns/campaign-results';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../support/accounts.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { campaignWorld } from '../support/campaigns.ts';

type Recipient = {
  lead_id: number;
  phone: string | null;
  skip_reason: string | null;
  clicked: boolean;
  cost: number;
  steps: Array<{
    step_id: number;
    bucket: string;
    reason: string | null;
    sms_status: string | null;
    sent_at: string | null;
    clicked: boolean;
    cost: number;
  }>;
};

/**
 * The campaign audience (decision 038): after a real two-step campaign through the fake Twilio, its
 * rows are moved into every bucket (delivered, failed and refunded, blocked, unknown, unconfirmed
 * after 72 h, skipped as opted out, skipped for the campaign as blacklisted) and one link is clicked
 * by a human and another only by a bot; every recipient's figures are then recounted from the rows.
 */
describe.each(databases)('the campaign audience on %s', (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team, launch, campaign } = world;
  let owner: Awaited<ReturnType<typeof team>>['owner'];
  let id: number;
  let leads: Array<{ id: number; phone: string }>;
  let blacklisted: number;

  beforeAll(async () => {
    const made = await team(6);
    owner = made.owner;
    const rows = await sql<{ id: string; phone: string }>`select l.id, v.value as phone from leads l
      join lead_values v on v.lead_id = l.id and v.type = 'phone'
      where l.list_id = ${made.list.id} order by l.id`.execute(db());
    leads = rows.rows.map((r) => ({ id: Number(r.id), phone: r.phone }));
    blacklisted = leads[5].id;
    const bl = await call(owner.token, 'PUT', '/leads/batch-status', { ids: [blacklisted], status: 'blacklisted' });
    expect(bl.statusCode, bl.body).toBe(200);
    id = await launch(owner.token, made.list.id, [{ message: 'Audience one' }, { message: 'Audience two' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);

    // Every row as the gateway took it, no report yet; then each moved to where the test wants it.
    await sql`update messages set status = null where campaign_id = ${id}`.execute(db());
    const move = (position: number, leadId: number, set: ReturnType<typeof sql>) =>
      sql`update messages m set ${set} from campaign_steps s
        where s.id = m.campaign_step_id and s.campaign_id = ${id} and s.position = ${position}
          and m.lead_id = ${leadId}`.execute(db());
    await move(1, leads[0].id, sql`status = 'delivered', status_at = now()`);
    await move(1, leads[1].id, sql`state = 'failed', status = null, error_code = '21211', refunded_at = now()`);
    await move(1, leads[2].id, sql`status = 'blocked_by_carrier', status_at = now()`);
    await move(1, leads[3].id, sql`state = 'unknown', status = null`);
    await move(1, leads[4].id, sql`status = null, submitted_at = now() - interval '73 hours'`);
    await move(2, leads[0].id, sql`status = 'delivered', status_at = now()`);
    await move(2, leads[1].id, sql`state = 'failed', status = null, error_code = 'skipped_opted_out', price = 0`);
    // A human's click on lead 0's step 1 link; only a bot's hit on lead 2's.
    for (const [leadId, human] of [
      [leads[0].id, true],
      [leads[2].id, false],
    ] as const) {
      await sql`insert into short_links (team_id, lead_id, message_id, kind, host, code, redirect_to, phone,
          human_clicks, other_hits, first_clicked_at)
        select m.team_id, m.lead_id, m.id, 'link', 'h.test', ${`c${id}x${leadId}`}, 'https://shop.test', m.phone,
          ${human ? 1 : 0}, ${human ? 0 : 3}, ${human ? sql`now()` : null}
        from messages m join campaign_steps s on s.id = m.campaign_step_id
        where s.campaign_id = ${id} and s.position = 1 and m.lead_id = ${leadId}`.execute(db());
    }
  }, 60_000);

  const page = async (query = '') => {
    const res = await call(owner.token, 'GET', `/campaigns/${id}/leads${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: Recipient[];
      meta: { total: number; last_page: number };
      steps: Array<{ id: number }>;
    };
  };

  it('answers every recipient once, each step in the bucket its row is in, with clicks and cost from the rows', async () => {
    const body = await page('?limit=100');
    expect(body.meta.total).toBe(6);
    expect(body.data.map((r) => r.lead_id)).toEqual(leads.map((l) => l.id));
    expect(body.steps.map((s) => s.id)).toHaveLength(2);
    const rows = await sql<
      ResultRow & { lead_id: string; step_id: string; price: string; refunded_at: Date | null; clicked: boolean }
    >`select m.lead_id, m.campaign_step_id as step_id, m.state, m.status, m.error_code, m.submitted_at, m.price,
        m.refunded_at, exists (select 1 from short_links l where l.message_id = m.id and l.first_clicked_at is not null) as clicked
      from messages m where m.campaign_id = ${id}`.execute(db());
    const now = new Date();
    for (const r of body.data) {
      if (r.lead_id === blacklisted) {
        expect(r.skip_reason).toBe('blacklisted');
        expect(r.phone).toBeNull();
        expect(r.steps.map((s) => [s.bucket, s.reason, s.cost])).toEqual([
          ['skipped', 'blacklisted', 0],
          ['skipped', 'blacklisted', 0],
        ]);
        continue;
      }
      for (const s of r.steps) {
        const row = rows.rows.find((m) => Number(m.lead_id) === r.lead_id && Number(m.step_id) === s.step_id);
        if (!row) throw new Error(`no row for lead ${r.lead_id} step ${s.step_id}`);
        expect(s.bucket).toBe(bucketOf(row, now).bucket);
        expect(s.reason).toBe(bucketOf(row, now).reason);
        const charged = row.refunded_at === null && ['claimed', 'submitted', 'unknown'].includes(row.state);
        expect(s.cost).toBe(charged ? Number(row.price) : 0);
        expect(s.clicked).toBe(row.clicked === true);
      }
      expect(r.cost).toBe(r.steps.reduce((a, s) => a + s.cost, 0));
    }
    // What a user would read off the table, spelt out.
    const byLead = new Map(body.data.map((r) => [r.lead_id, r]));
    const first = (i: number) => byLead.get(leads[i].id)?.steps[0];
    expect(first(0)).toMatchObject({ bucket: 'delivered', sms_status: 'delivered', clicked: true });
    expect(first(1)).toMatchObject({ bucket: 'failed', reason: '21211', sms_status: 'failed', cost: 0 });
    expect(first(2)).toMatchObject({ bucket: 'failed', reason: 'blocked_by_carrier', clicked: false });
    expect(first(3)).toMatchObject({ bucket: 'unknown', sms_status: null });
    expect(first(4)).toMatchObject({ bucket: 'unconfirmed', sms_status: 'sent' });
    expect(byLead.get(leads[1].id)?.steps[1]).toMatchObject({ bucket: 'skipped', reason: 'opted_out', cost: 0 });
    expect(byLead.get(leads[0].id)?.clicked).toBe(true);
    expect(byLead.get(leads[2].id)?.clicked).toBe(false);
    expect(first(0)?.cost).toBeGreaterThan(0);
    expect(first(0)?.sent_at).not.toBeNull();
  });

  it('searches by phone or value, sorts and pages without overlap', async () => {
    const found = await page(`?search=${encodeURIComponent(leads[2].phone)}`);
    expect(found.data.map((r) => r.lead_id)).toEqual([leads[2].id]);
    const digits = await page(`?search=${leads[3].phone.slice(1)}`);
    expect(digits.data.map((r) => r.lead_id)).toEqual([leads[3].id]);
    expect((await page('?search=nobody-has-this')).meta.total).toBe(0);

    const byCost = await page('?order[0]=cost,asc&limit=100');
    const costs = byCost.data.map((r) => r.cost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    const clickedFirst = await page('?order[0]=clicked,desc');
    expect(clickedFirst.data[0]?.lead_id).toBe(leads[0].id);
    const desc = await page('?order[0]=lead_id,desc&limit=100');
    expect(desc.data.map((r) => r.lead_id)).toEqual(leads.map((l) => l.id).reverse());

    const pages = [await page('?limit=4&page=1'), await page('?limit=4&page=2')];
    expect(pages[0].meta).toMatchObject({ total: 6, last_page: 2 });
    expect([...pages[0].data, ...pages[1].data].map((r) => r.lead_id)).toEqual(leads.map((l) => l.id));
  });

  it("answers the list's figures: sent of all steps, delivered of sent, human clickers of delivered, actual cost", async () => {
    const res = await call(owner.token, 'GET', `/campaigns/results?ids=${id},999999999`);
    expect(res.statusCode, res.body).toBe(200);
    const counted = await sql<{ sent: number; delivered: number; cost: number }>`select
        count(*) filter (where state = 'submitted')::int as sent,
        count(*) filter (where state = 'submitted' and status = 'delivered')::int as delivered,
        coalesce(sum(price) filter (where refunded_at is null and state in ('claimed', 'submitted', 'unknown')), 0)::int as cost
      from messages where campaign_id = ${id}`.execute(db());
    const c = counted.rows[0];
    // Five recipients (the blacklisted lead is skipped) × two steps; two delivered; one human clicker.
    expect(res.json().data).toEqual([
      {
        id,
        records: 5,
        amount_sent: c.sent,
        amount_delivered: 2,
        amount_clicked: 1,
        percentage_sent_of_all_steps: Math.floor((100 * c.sent) / 10),
        percentage_delivered: Math.floor((100 * 2) / c.sent),
        percentage_clicked: 50,
        actual_cost: c.cost,
      },
    ]);
    expect(c.sent).toBe(7);
  });

  const exportEnded = async (token: string, exportId: number) => {
    for (let i = 0; i < 120; i++) {
      const active = (await call(token, 'GET', '/exports/active')).json().data as Array<{
        id: number;
        type: string;
        url: string;
        rows: number;
      }>;
      const mine = active.find((e) => e.id === exportId);
      if (mine && mine.type !== 'export-pending') return mine;
      await new Promise((r) => setTimeout(r, 250));
    }
    return undefined;
  };

  it('exports the audience as CSV and XLSX: a status, sent-at and clicked column per step, and the cost', async () => {
    const started = await world.app().request({
      method: 'POST',
      url: `/api/campaigns/${id}/leads/csv`,
      token: owner.token,
      headers: { 'accept-language': 'en' },
      payload: { name: 'Audience file' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const done = await exportEnded(owner.token, started.json().id);
    expect(done).toMatchObject({ type: 'export-completed', rows: 6 });
    const file = await world.app().request({ method: 'GET', url: `${done?.url}`, token: owner.token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('Audience file.csv');
    const lines = file.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Lead,Phone,Step 1 status,Step 1 sent at,Step 1 clicked,Step 2 status,Step 2 sent at,Step 2 clicked,Cost',
    );
    expect(lines).toHaveLength(7);
    const cells = (leadId: number) => lines.find((l) => l.startsWith(`${leadId},`))?.split(',') ?? [];
    const body = await page('?limit=100');
    for (const r of body.data) {
      const row = cells(r.lead_id);
      expect(row[1]).toBe(r.phone ?? '');
      expect(row[8]).toBe((r.cost / 100).toFixed(2));
      expect(row[4]).toBe(r.steps[0].clicked ? 'yes' : 'no');
    }
    expect(cells(leads[0].id)[2]).toBe('Delivered');
    expect(cells(leads[0].id)[4]).toBe('yes');
    expect(cells(leads[1].id)[2]).toBe('Failed (21211)');
    expect(cells(leads[1].id)[5]).toBe('Skipped (opted_out)');
    expect(cells(leads[4].id)[2]).toBe('Unconfirmed');
    expect(cells(blacklisted)[2]).toBe('Skipped (blacklisted)');

    // The search goes with it; XLSX is a zip of the same rows.
    const xlsx = await world.app().request({
      method: 'POST',
      url: `/api/campaigns/${id}/leads/xlsx`,
      token: owner.token,
      payload: { name: 'One lead', search: leads[2].phone },
    });
    expect(xlsx.statusCode, xlsx.body).toBe(202);
    const xdone = await exportEnded(owner.token, xlsx.json().id);
    expect(xdone).toMatchObject({ type: 'export-completed', rows: 1 });
    const xfile = await world.app().request({ method: 'GET', url: `${xdone?.url}`, token: owner.token });
    expect(xfile.headers['content-type']).toContain('spreadsheetml');
    expect([...xfile.rawPayload.subarray(0, 2)]).toEqual([0x50, 0x4b]);
  });

  it("answers another team's campaign 404 and its figures not at all; operators are refused", async () => {
    const other = await team(0, '');
    expect((await call(other.owner.token, 'GET', `/campaigns/${id}/leads`)).statusCode).toBe(404);
    const before = (await call(other.owner.token, 'GET', '/exports/active')).json().data.length;
    expect((await call(other.owner.token, 'POST', `/campaigns/${id}/leads/csv`, { name: 'Not mine' })).statusCode).toBe(
      404,
    );
    expect((await call(other.owner.token, 'GET', '/exports/active')).json().data).toHaveLength(before);
    const figures = await call(other.owner.token, 'GET', `/campaigns/results?ids=${id}`);
    expect(figures.json().data).toEqual([]);
    const operator = await addMember(world.app(), owner.token, 'team_operator');
    expect((await call(operator.token, 'GET', `/campaigns/${id}/leads`)).statusCode).toBe(403);
    expect((await call(operator.token, 'GET', `/campaigns/results?ids=${id}`)).statusCode).toBe(403);
    expect((await call(operator.token, 'POST', `/campaigns/${id}/leads/csv`, { name: 'No' })).statusCode).toBe(403);
    expect((await call(owner.token, 'GET', '/campaigns/results?ids=abc')).statusCode).toBe(422);
  });
});
