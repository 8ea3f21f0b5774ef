import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deliver } from '../support/gateways.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import type { DB } from '../../src/db/schema.ts';
import { campaignWorld } from '../support/campaigns.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

/** A campaign's people counted from its rows: what `statistic` read before migration 0044 kept them. */
async function recount(db: Kysely<DB>, campaignId: number) {
  const r = await sql<Record<string, string>>`
    select count(distinct m.phone) filter (where m.state = 'submitted') as sent,
      count(distinct m.phone) filter (where m.state = 'submitted' and m.status = 'delivered') as delivered,
      count(distinct m.phone) filter (where l.clicked) as clicked,
      count(distinct m.phone) filter (where l.clicked or l.unsubscribed) as engaged,
      count(distinct m.phone) filter (where l.unsubscribed) as unsubscribed
    from messages m left join lateral (
      select bool_or(s.kind = 'link' and s.first_clicked_at is not null) as clicked,
        bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null) as unsubscribed
      from short_links s where s.message_id = m.id) l on true
    where m.campaign_id = ${campaignId} and m.campaign_step_id is not null`.execute(db);
  const x = r.rows[0] as Record<string, string>;
  return {
    sent: Number(x.sent),
    delivered: Number(x.delivered),
    clicked: Number(x.clicked),
    engaged: Number(x.engaged),
    unsubscribed: Number(x.unsubscribed),
  };
}

/**
 * A campaign's people across its steps (migration 0044, decision 037): a phone counted once however
 * many of the campaign's messages reached it. After a three-step campaign whose phones are sent,
 * delivered, clicked and unsubscribed on different steps, with reports repeated and out of order,
 * bots' hits, two report batches and a click batch written at once, a rolled-back batch, a delivery
 * taken back by hand and a lost call, the kept figures equal a recount from the rows, and so does
 * `statistic`.
 */
describe.each(databases)('campaign people across steps on %s', (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team, launch, campaign } = world;
  const report = async (sid: string, status: string, extra: Record<string, string> = {}) => {
    const res = await deliver(world.app(), world.twilio().statusCallback(sid, status, extra));
    expect(res.statusCode).toBeLessThan(300);
  };
  const kept = async (id: number) => {
    const r = await sql<Record<string, string>>`select sent, delivered, clicked, engaged, unsubscribed
      from campaign_statistics_people where campaign_id = ${id}`.execute(db());
    const x = r.rows[0] ?? {};
    const n = (k: string) => Number(x[k] ?? 0);
    return {
      sent: n('sent'),
      delivered: n('delivered'),
      clicked: n('clicked'),
      engaged: n('engaged'),
      unsubscribed: n('unsubscribed'),
    };
  };
  const expectKept = async (id: number) => expect(await kept(id)).toEqual(await recount(db(), id));

  it('keeps sent, delivered, clicked and engaged people as a recount from the rows says', async () => {
    const { owner, list, phones } = await team(6);
    const id = await launch(owner.token, list.id, [
      { message: 'One {{link}} stop {{unsubscribe}}', redirect_to: 'https://shop.example/one' },
      { message: 'Two {{link}}', redirect_to: 'https://shop.example/two' },
      { message: 'Three {{link}} stop {{unsubscribe}}', redirect_to: 'https://shop.example/three' },
    ]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 180_000);
    const steps = await db()
      .selectFrom('campaign_steps')
      .select(['id'])
      .where('campaign_id', '=', id)
      .orderBy('position')
      .execute();
    const rows = await db()
      .selectFrom('messages')
      .select(['id', 'phone', 'provider_message_id', 'campaign_step_id'])
      .where('campaign_id', '=', id)
      .execute();
    expect(rows).toHaveLength(18);
    const row = (p: number, step: number) => {
      const r = rows.find((x) => x.phone === phones[p] && Number(x.campaign_step_id) === Number(steps[step]?.id));
      if (!r) throw new Error(`no message to phone ${p} on step ${step}`);
      return { id: Number(r.id), sid: r.provider_message_id as string };
    };
    // Every phone sent on every step: six people, however many messages.
    expect(await kept(id)).toEqual({ sent: 6, delivered: 0, clicked: 0, engaged: 0, unsubscribed: 0 });
    await expectKept(id);

    // 0: delivered on two steps, reports repeated, a late "sent". 1: undelivered on step 1, delivered
    // on step 2 ("delivered" before "sent"). 2: delivered on step 1 only. 3, 4, 5: "sent" at most.
    await report(row(0, 0).sid, 'delivered');
    await report(row(0, 0).sid, 'sent');
    await report(row(0, 0).sid, 'delivered');
    await report(row(0, 1).sid, 'delivered');
    await report(row(0, 2).sid, 'sent');
    await report(row(1, 0).sid, 'undelivered', { ErrorCode: '30003' });
    await report(row(1, 1).sid, 'delivered');
    await report(row(1, 1).sid, 'sent');
    await report(row(2, 0).sid, 'delivered');
    await report(row(3, 0).sid, 'sent');
    await expectKept(id);
    expect((await kept(id)).delivered).toBe(3);

    // Clicks: 1 clicks step 3 (no delivery report for it), 2 clicks steps 1 and 2 (twice on 1);
    // a bot opens 3's links on two steps (never a click). 4 unsubscribes from step 3.
    const linkOf = async (messageId: number, k: 'link' | 'unsubscribe') =>
      db()
        .selectFrom('short_links')
        .select(['id', 'host', 'code'])
        .where('message_id', '=', messageId)
        .where('kind', '=', k)
        .executeTakeFirstOrThrow();
    await sql`update short_links set created_at = now() - interval '1 minute'
      where message_id in (${sql.join(rows.map((r) => Number(r.id)))})`.execute(db());
    const follow = async (messageId: number, ua: string) => {
      const l = await linkOf(messageId, 'link');
      return world.app().request({ method: 'GET', url: `/${l.code}`, headers: { host: l.host, 'user-agent': ua } });
    };
    await Promise.all([
      follow(row(1, 2).id, BROWSER),
      follow(row(2, 0).id, BROWSER),
      follow(row(2, 0).id, BROWSER),
      follow(row(2, 1).id, BROWSER),
      follow(row(3, 0).id, BOT),
      follow(row(3, 1).id, BOT),
    ]);
    const stop = await linkOf(row(4, 2).id, 'unsubscribe');
    const headers = { host: stop.host, 'user-agent': BROWSER };
    expect((await world.app().request({ method: 'GET', url: `/${stop.code}`, headers })).statusCode).toBe(200);
    expect((await world.app().request({ method: 'POST', url: `/${stop.code}`, headers })).statusCode).toBe(200);
    await waitUntil('the clicks counted', async () => {
      const r = await sql<{ h: number; o: number }>`select coalesce(sum(human_clicks), 0)::int as h,
        coalesce(sum(other_hits), 0)::int as o from short_links
        where kind = 'link' and message_id in (${sql.join(rows.map((r) => Number(r.id)))})`.execute(db());
      return r.rows[0]?.h === 4 && r.rows[0]?.o === 2;
    });
    await expectKept(id);
    expect(await kept(id)).toEqual({ sent: 6, delivered: 3, clicked: 2, engaged: 3, unsubscribed: 1 });

    // Two report batches and a click batch at once, each transaction held open while the others
    // move the same phones' counts (one phone's messages on several steps in both batches).
    const ids = (xs: number[]) => sql.join(xs.map((x) => sql`${x}::bigint`));
    await Promise.all([
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update messages set status = 'delivered', status_at = now(), updated_at = now()
            where id in (${ids([row(3, 0).id, row(4, 1).id, row(5, 2).id])})`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update messages set status = 'delivered', status_at = now(), updated_at = now()
            where id in (${ids([row(3, 1).id, row(4, 2).id, row(5, 0).id])})`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
      db()
        .transaction()
        .execute(async (tx) => {
          await sql`update short_links set human_clicks = human_clicks + 1, first_clicked_at = coalesce(first_clicked_at, now())
            where kind = 'link' and message_id in (${ids([row(3, 2).id, row(2, 2).id])})`.execute(tx);
          await sql`select pg_sleep(0.3)`.execute(tx);
        }),
    ]);
    await expectKept(id);
    expect(await kept(id)).toEqual({ sent: 6, delivered: 6, clicked: 3, engaged: 4, unsubscribed: 1 });

    // A rolled-back batch leaves nothing behind.
    await db()
      .transaction()
      .execute(async (tx) => {
        await sql`update messages set state = 'failed', status = null where id in (${ids(rows.map((r) => Number(r.id)))})`.execute(
          tx,
        );
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expectKept(id);

    // Taken back by hand: 2's only delivery, and one of 0's two; 5's every call lost; 3's click undone.
    await sql`update messages set status = 'undelivered' where id in (${ids([row(2, 0).id, row(0, 0).id])})`.execute(
      db(),
    );
    await sql`update messages set state = 'unknown', status = null
      where id in (${ids([row(5, 0).id, row(5, 1).id, row(5, 2).id])})`.execute(db());
    await sql`update short_links set first_clicked_at = null where message_id = ${row(3, 2).id}`.execute(db());
    await expectKept(id);
    expect(await kept(id)).toEqual({ sent: 5, delivered: 4, clicked: 2, engaged: 3, unsubscribed: 1 });

    // The same from the backfill's function, and what `statistic` answers.
    const before = await kept(id);
    await sql`select herald_campaign_people_rebuild(${id})`.execute(db());
    expect(await kept(id)).toEqual(before);
    const res = await call(owner.token, 'GET', `/campaigns/${id}/statistic`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json().campaign;
    expect(res.json().opt_outs.unsubscribe_link).toBe(1);
    expect([c.amount_clicked, c.amount_eng, c.amount_not_eng]).toEqual([2, 3, 2]);
    expect(c.percentage_clicked).toBeCloseTo((2 / 4) * 100, 1);
  });
});
