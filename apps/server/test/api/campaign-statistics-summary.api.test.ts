import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deliver } from '../support/gateways.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { campaignWorld } from '../support/campaigns.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

/**
 * The statistics summary (migration 0037, decision 037) is what a recount from the rows says: after
 * a two-step campaign, reports repeated and out of order, clicks and bot hits, two report batches
 * written at once by two transactions, a click batch beside them, a lost call and its refund, and a
 * row past 72 hours, the summary equals `herald_campaign_statistics_rebuild` of the same rows, and
 * `statistic` answers the same before and after that rebuild.
 */
describe.each(databases)('campaign statistics summary on %s', (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team, launch, campaign } = world;

  /** Every non-zero figure of the campaign's summary, one sorted line per row. */
  async function summaryOf(id: number): Promise<string[]> {
    const lines: string[] = [];
    for (const table of [
      'campaign_statistics',
      'campaign_statistics_hourly',
      'campaign_statistics_links',
      'campaign_statistics_recipients',
    ]) {
      const r = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where campaign_id = ${id}`.execute(
        db(),
      );
      for (const row of r.rows) {
        const entries = Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]);
        const figures = entries.filter(
          ([k]) => !/^(campaign_id|step_id|gateway_id|sender|bucket|reason|sms_status|hour|redirect_to)$/.test(k),
        );
        if (figures.every(([, v]) => v === '0')) continue;
        lines.push(`${table} ${entries.map(([k, v]) => `${k}=${v}`).join(' ')}`);
      }
    }
    return lines.sort();
  }

  it('equals a rebuild from the rows after reports, clicks and two batches written at once', async () => {
    const { owner, list } = await team(12);
    const id = await launch(owner.token, list.id, [
      { message: 'Summary {{link}}', redirect_to: 'https://shop.example/summary' },
      { message: 'Second step' },
    ]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 60_000);
    const rows = await db()
      .selectFrom('messages')
      .select(['id', 'phone', 'provider_message_id', 'campaign_step_id'])
      .where('campaign_id', '=', id)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(24);
    // The backfill's function gives what the triggers kept while the campaign ran.
    const afterRun = await summaryOf(id);
    await sql`select herald_campaign_statistics_rebuild(${id})`.execute(db());
    expect(await summaryOf(id)).toEqual(afterRun);

    // Reports through the webhook, repeated and out of order, two bursts at once.
    const report = (sid: string, status: string, extra: Record<string, string> = {}) =>
      deliver(world.app(), world.twilio().statusCallback(sid, status, extra));
    const burst = (part: typeof rows, statuses: string[]) =>
      Promise.all(
        part.flatMap((r, i) =>
          statuses.map((s) => report(r.provider_message_id as string, s, i % 3 === 0 ? { ErrorCode: '30008' } : {})),
        ),
      );
    await Promise.all([
      burst(rows.slice(0, 8), ['delivered', 'sent', 'delivered']),
      burst(rows.slice(8, 14), ['sent', 'undelivered', 'sent']),
    ]);

    // Clicks: a person twice on two links, a bot on another.
    const links = await db()
      .selectFrom('short_links')
      .select(['message_id', 'host', 'code', 'kind'])
      .where(
        'message_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('kind', '=', 'link')
      .orderBy('message_id')
      .execute();
    expect(links.length).toBe(12);
    await sql`update short_links set created_at = now() - interval '1 minute'
      where message_id in (${sql.join(rows.map((r) => r.id))})`.execute(db());
    const follow = (l: { host: string; code: string }, ua: string) =>
      world.app().request({ method: 'GET', url: `/${l.code}`, headers: { host: l.host, 'user-agent': ua } });
    await Promise.all([
      follow(links[0] as (typeof links)[0], BROWSER),
      follow(links[0] as (typeof links)[0], BROWSER),
      follow(links[1] as (typeof links)[0], BROWSER),
      follow(links[2] as (typeof links)[0], BOT),
    ]);
    await waitUntil('the clicks counted', async () => {
      const r = await sql<{ h: number; o: number }>`select coalesce(sum(human_clicks), 0)::int as h,
        coalesce(sum(other_hits), 0)::int as o from short_links where message_id in (${sql.join(rows.map((r) => r.id))})`.execute(
        db(),
      );
      return r.rows[0]?.h === 3 && r.rows[0]?.o === 1;
    });

    // Two report batches in two transactions at once (as two processes write them), each holding
    // its transaction open while the other moves rows out of the same summary rows, and a click batch.
    const at = (ids: unknown[]) => sql.join(ids.map((x) => sql`${Number(x)}::bigint`));
    const batchA = rows.slice(14, 19).map((r) => r.id);
    const batchB = rows.slice(19, 24).map((r) => r.id);
    await Promise.all([
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update messages m set status = v.status, status_at = now(), updated_at = now()
            from (values ${sql.join(batchA.map((x, i) => sql`(${Number(x)}::bigint, ${i % 2 ? 'delivered' : 'blocked_by_carrier'})`))}) v(id, status)
            where m.id = v.id`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update messages m set status = 'delivered', status_at = now() - interval '2 hours', updated_at = now()
            where m.id in (${at(batchB)})`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update short_links set human_clicks = human_clicks + 1, first_clicked_at = coalesce(first_clicked_at, now())
            where kind = 'link' and message_id in (${at([links[3]?.message_id, links[4]?.message_id])})`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
    ]);
    // A rolled-back batch leaves nothing behind.
    await db()
      .transaction()
      .execute(async (tx) => {
        await sql`update messages set status = 'failed' where id in (${at(batchA)})`.execute(tx);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // A lost call, then its refund; a sent row past 72 hours (unconfirmed, read by time).
    const sentOnly = rows.slice(8, 14).filter((_, i) => i % 3 !== 0);
    await sql`update messages set state = 'unknown', status = null where id = ${Number(rows[14]?.id)}`.execute(db());
    await sql`update messages set refunded_at = now() where id = ${Number(rows[14]?.id)}`.execute(db());
    await sql`update messages set submitted_at = now() - interval '73 hours', status = null
      where id = ${Number(sentOnly[0]?.id)}`.execute(db());

    const kept = await summaryOf(id);
    const before = await call(owner.token, 'GET', `/campaigns/${id}/statistic`);
    expect(before.statusCode, before.body).toBe(200);
    await sql`select herald_campaign_statistics_rebuild(${id})`.execute(db());
    expect(kept).toEqual(await summaryOf(id));
    const after = await call(owner.token, 'GET', `/campaigns/${id}/statistic`);
    expect(after.json()).toEqual(before.json());

    // And the figures moved as the rows did.
    const s = before.json();
    const buckets = s.campaign.buckets as Record<string, number>;
    expect(Object.values(buckets).reduce((a, b) => a + b, 0)).toBe(24);
    expect(buckets.unconfirmed).toBe(1);
    expect(buckets.unknown).toBe(1);
    expect(s.campaign.human_clicks).toBe(5);
    expect(s.campaign.other_hits).toBe(1);
    expect(s.links).toEqual([
      { redirect_to: 'https://shop.example/summary', clickers: 4, human_clicks: 5, other_hits: 1 },
    ]);
  });
});
