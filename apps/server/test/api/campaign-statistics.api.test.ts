import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bucketOf, percentOf, type ResultRow, smsStatusOf } from '@herald/shared/campaigns/campaign-results';
import { signupVerified } from '../support/accounts.ts';
import { deliver } from '../support/gateways.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { campaignWorld } from '../support/campaigns.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

/**
 * `campaigns/{id}/statistic` and `statistic-leads` (decision 037): after a campaign whose messages
 * were delivered, failed, blocked, left unconfirmed, lost and skipped, with reports repeated and out
 * of order and a bot's hits beside a person's click, every figure equals a recount from the rows.
 */
describe.each(databases)('campaign statistics on %s', (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team, launch, campaign } = world;
  const report = async (sid: string, status: string, extra: Record<string, string> = {}) => {
    const res = await deliver(world.app(), world.twilio().statusCallback(sid, status, extra));
    expect(res.statusCode).toBeLessThan(300);
  };
  const follow = (link: { host: string; code: string }, ua: string) =>
    world.app().request({ method: 'GET', url: `/${link.code}`, headers: { host: link.host, 'user-agent': ua } });

  it('counts every figure as the rows say, and opens the leads behind each', async () => {
    const { owner, list, phones } = await team(8);
    const optedOut = phones[7];
    const id = await launch(
      owner.token,
      list.id,
      [{ message: 'Stats {{link}} stop {{unsubscribe}}', redirect_to: 'https://shop.example/sale' }],
      {},
      async () => {
        // Opted out before the start: skipped at the start, no message row.
        await sql`insert into message_opt_outs (team_id, phone, gateway_id, reason)
          values (${owner.user.team_id}, ${optedOut}, null, 'inbound_stop')`.execute(db());
      },
    );
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const rows = await db()
      .selectFrom('messages')
      .select(['id', 'phone', 'provider_message_id'])
      .where('campaign_id', '=', id)
      .execute();
    expect(rows).toHaveLength(7);
    const sid = (phone: string) => rows.find((r) => r.phone === phone)?.provider_message_id as string;
    const rowId = (phone: string) => Number(rows.find((r) => r.phone === phone)?.id);

    // 0: delivered, then a late "sent" and the delivery again. 1: failed. 2: blocked by the carrier.
    // 3: inactive device. 4: no final report for 73 hours. 5: delivered and clicked. 6: lost call.
    await report(sid(phones[0]), 'delivered');
    await report(sid(phones[0]), 'sent');
    await report(sid(phones[0]), 'delivered');
    await report(sid(phones[1]), 'failed', { ErrorCode: '30008' });
    await report(sid(phones[2]), 'undelivered', { ErrorCode: '30007' });
    await report(sid(phones[3]), 'undelivered', { ErrorCode: '30005' });
    await report(sid(phones[4]), 'sent');
    await report(sid(phones[5]), 'sent');
    await report(sid(phones[5]), 'delivered');
    await report(sid(phones[5]), 'delivered');
    await sql`update messages set submitted_at = now() - interval '73 hours' where id = ${rowId(phones[4])}`.execute(
      db(),
    );
    await sql`update messages set state = 'unknown', status = null where id = ${rowId(phones[6])}`.execute(db());

    const links = await db()
      .selectFrom('short_links')
      .select(['message_id', 'kind', 'host', 'code'])
      .where(
        'message_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    await sql`update short_links set created_at = now() - interval '1 minute'
      where message_id in (${sql.join(rows.map((r) => r.id))})`.execute(db());
    const linkOf = (phone: string, k: 'link' | 'unsubscribe') =>
      links.find((l) => Number(l.message_id) === rowId(phone) && l.kind === k) as { host: string; code: string };
    // A person clicks twice; a preview bot opens 5's and 0's links: never a click.
    expect((await follow(linkOf(phones[5], 'link'), BROWSER)).statusCode).toBe(302);
    expect((await follow(linkOf(phones[5], 'link'), BROWSER)).statusCode).toBe(302);
    await follow(linkOf(phones[5], 'link'), BOT);
    await follow(linkOf(phones[0], 'link'), BOT);
    await waitUntil('the clicks counted', async () => {
      const r = await sql<{ h: number; o: number }>`select coalesce(sum(human_clicks), 0)::int as h,
        coalesce(sum(other_hits), 0)::int as o from short_links where message_id in (${sql.join(rows.map((r) => r.id))})`.execute(
        db(),
      );
      return r.rows[0]?.h === 2 && r.rows[0]?.o === 2;
    });

    const res = await call(owner.token, 'GET', `/campaigns/${id}/statistic`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.available).toBe(true);

    // The recount, from the rows with the shared definitions.
    const now = new Date();
    const all = await db()
      .selectFrom('messages')
      .select(['id', 'state', 'status', 'error_code', 'submitted_at', 'parts', 'price', 'refunded_at'])
      .where('campaign_id', '=', id)
      .execute();
    const clicks = await db()
      .selectFrom('short_links')
      .select(['message_id', 'kind', 'first_clicked_at', 'unsubscribed_at', 'human_clicks', 'other_hits'])
      .where(
        'message_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const clicked = new Set(
      clicks.filter((c) => c.kind === 'link' && c.first_clicked_at).map((c) => Number(c.message_id)),
    );
    const buckets: Record<string, number> = {};
    const statuses: Record<string, number> = {};
    for (const m of all) {
      const b = bucketOf(m as ResultRow, now).bucket;
      buckets[b] = (buckets[b] ?? 0) + 1;
      const st = smsStatusOf(m as ResultRow);
      if (st) statuses[st] = (statuses[st] ?? 0) + 1;
    }
    const sent = all.filter((m) => m.state === 'submitted');
    const delivered = sent.filter((m) => m.status === 'delivered').length;
    // The rows are what the scenario made.
    expect(buckets).toEqual({ delivered: 2, failed: 3, unconfirmed: 1, unknown: 1 });
    expect(clicked.size).toBe(1);

    const step = s.steps[0];
    for (const f of [s.campaign, step]) {
      expect(f.records).toBe(8);
      expect(f.amount_sent).toBe(sent.length);
      expect(f.amount_delivered).toBe(delivered);
      expect(f.amount_clicked).toBe(clicked.size);
      expect(f.human_clicks).toBe(2);
      expect(f.other_hits).toBe(2);
      expect(f.amount_error).toBe(buckets.failed);
      expect(f.amount_eng).toBe(1);
      expect(f.amount_not_eng).toBe(sent.length - 1);
      expect(f.percentage_sent).toBe(percentOf(sent.length, 8));
      expect(f.percentage_delivered).toBe(percentOf(delivered, sent.length));
      expect(f.percentage_clicked).toBe(percentOf(1, delivered));
      expect(f.percentage_error).toBe(percentOf(3, sent.length));
      expect(f.amount_status_delivered).toBe(statuses.delivered);
      expect(f.amount_status_blocked).toBe(statuses.blocked_by_carrier);
      expect(f.amount_status_inactive).toBe(statuses.inactive_device);
      expect(f.amount_status_error).toBe(statuses.failed);
      expect(f.amount_status_sent).toBe(statuses.sent);
      expect(f.amount_status_sending ?? 0).toBe(statuses.sending ?? 0);
      expect(f.amount_status_queued ?? 0).toBe(statuses.queued ?? 0);
      expect(f.sms_parts).toBe(sent.reduce((n, m) => n + m.parts, 0));
      const cost = all
        .filter((m) => (m.state === 'submitted' || m.state === 'unknown') && m.refunded_at === null)
        .reduce((n, m) => n + Number(m.price), 0);
      expect(f.actual_cost).toBe(cost);
      expect(f.actual_cost).toBeGreaterThan(0);
      expect(f.buckets).toMatchObject({ ...buckets, skipped: 1, queued: 0, sent: 0 });
      expect(f.skipped).toEqual({ opted_out: 1 });
      expect(f.failed).toEqual({ failed: 1, blocked_by_carrier: 1, inactive_device: 1 });
      // Every recipient in exactly one bucket.
      expect(Object.values(f.buckets as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(8);
    }
    expect(s.links).toEqual([
      { redirect_to: 'https://shop.example/sale', clickers: 1, human_clicks: 2, other_hits: 2 },
    ]);
    expect(s.hourly.reduce((n: number, h: { clicked: number }) => n + h.clicked, 0)).toBe(1);
    expect(s.hourly.reduce((n: number, h: { delivered: number }) => n + h.delivered, 0)).toBe(delivered);
    expect(s.by_gateway).toHaveLength(1);
    expect(s.by_gateway[0]).toMatchObject({ amount_sent: sent.length, amount_delivered: delivered, amount_clicked: 1 });
    expect(s.by_sender.reduce((n: number, x: { amount_sent: number }) => n + x.amount_sent, 0)).toBe(sent.length);
    expect(s.opt_outs).toEqual({ stop: 0, unsubscribe_link: 0 });

    // The leads behind the figures.
    const leads = async (filter: string) => {
      const r = await call(owner.token, 'GET', `/campaigns/${id}/statistic-leads?filter_type=${filter}&limit=50`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { data: Array<{ phone: string; bucket: string }>; meta: { total: number } };
    };
    expect((await leads('clicked')).data.map((l) => l.phone)).toEqual([phones[5]]);
    expect((await leads('engaged')).data.map((l) => l.phone)).toEqual([phones[5]]);
    expect((await leads('delivered')).data.map((l) => l.phone).sort()).toEqual([phones[0], phones[5]].sort());
    expect((await leads('blocked_by_carrier')).data.map((l) => l.phone)).toEqual([phones[2]]);
    expect((await leads('inactive_device')).data.map((l) => l.phone)).toEqual([phones[3]]);
    expect((await leads('failed')).data.map((l) => l.phone)).toEqual([phones[1]]);
    expect((await leads('unconfirmed')).data.map((l) => l.phone)).toEqual([phones[4]]);
    expect((await leads('unknown')).data.map((l) => l.phone)).toEqual([phones[6]]);
    // Skipped at the start (opted out): no message row, still behind the skipped figure, under step 1.
    const skipped = await leads('skipped');
    expect(skipped.data).toEqual([expect.objectContaining({ phone: optedOut, bucket: 'skipped', position: 1 })]);
    expect(skipped.meta.total).toBe(1);
    expect((await leads('not_engaged')).meta.total).toBe(sent.length - 1);
    expect((await leads('all_sent')).meta.total).toBe(sent.length);
    const plain = await call(owner.token, 'GET', `/campaigns/${id}/statistic-leads`);
    expect(plain.json().meta.total).toBe(sent.length);
    expect((await leads('all_failed')).data.map((l) => l.phone).sort()).toEqual(
      [phones[1], phones[2], phones[3]].sort(),
    );
    expect((await leads('clicked_or_unsubscribed')).data.map((l) => l.phone)).toEqual([phones[5]]);
    expect((await leads('unsubscribe')).meta.total).toBe(0);
    expect((await call(owner.token, 'GET', `/campaigns/${id}/statistic-leads?filter_type=nope`)).statusCode).toBe(422);
  });

  it("answers 404 for another team's campaign, and unavailable for a draft", async () => {
    const { owner } = await team(0, '');
    const draft = (await call(owner.token, 'POST', '/campaigns', {})).json();
    const own = await call(owner.token, 'GET', `/campaigns/${draft.id}/statistic`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ available: false, campaign: null, steps: [] });
    // Scheduled for tomorrow: still unavailable (spec).
    await db()
      .updateTable('campaigns')
      .set({ status: 'scheduled', start_at: new Date(Date.now() + 86_400_000) })
      .where('id', '=', Number(draft.id))
      .execute();
    const scheduled = await call(owner.token, 'GET', `/campaigns/${draft.id}/statistic`);
    expect(scheduled.json()).toMatchObject({ available: false, campaign: null });
    const other = await signupVerified(world.app());
    expect((await call(other.token, 'GET', `/campaigns/${draft.id}/statistic`)).statusCode).toBe(404);
    expect(
      (await call(other.token, 'GET', `/campaigns/${draft.id}/statistic-leads?filter_type=delivered`)).statusCode,
    ).toBe(404);
  });
});
