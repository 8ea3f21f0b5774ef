import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkLength } from '@herald/shared/short-links/short-link-code';
import type { DB } from '../../src/db/schema.ts';
import type { ShortLinksModule } from '../../src/modules/short-links/index.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/** Links made as the sending side makes them, followed as a phone, a messenger and a scanner do. */
describe.each(databases)('short links on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let make: ShortLinksModule['make'];
  let makeMany: ShortLinksModule['makeMany'];
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let leadId: number;
  const phone = '+380501234567';

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {},
      {
        onShortLinks: (s) => {
          make = s.make;
          makeMany = s.makeMany;
        },
      },
    );
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token);
    const lead = await createLead(t, owner.token, source.id, list.id, [[attrs.phone, phone]]);
    leadId = lead.json().id ?? lead.json().data.id;
  });
  afterAll(() => t?.close());

  const teamId = () => owner.user.team_id;
  const link = (kind_: 'link' | 'unsubscribe', redirectTo: string | null = 'https://shop.example/sale?x=1') =>
    db
      .transaction()
      .execute((tx) => make(tx, { teamId: teamId(), leadId, messageId: null, redirectTo, kind: kind_, phone }));
  const age = (code: string) =>
    sql`update short_links set created_at = now() - interval '1 minute' where code = ${code}`.execute(db);
  const row = (code: string) =>
    db.selectFrom('short_links').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
  const follow = (text: string, method: 'GET' | 'HEAD' | 'POST' = 'GET', ua = BROWSER) => {
    const [host, code] = text.split('/');
    return t.request({ method, url: `/${code}`, headers: { host, 'user-agent': ua } });
  };
  const phoneValue = () =>
    db
      .selectFrom('lead_values')
      .select(['clicked', 'ban'])
      .where('lead_id', '=', leadId)
      .where('type', '=', 'phone')
      .executeTakeFirstOrThrow();
  const timeline = (action: string) =>
    db.selectFrom('lead_logs').select('id').where('lead_id', '=', leadId).where('action', '=', action).execute();

  it('makes `host/code` on the app host (at least 7 characters of code) and redirects with 302', async () => {
    const made = await link('link');
    // herald.test is 11 characters: the code keeps its 7, so the link takes 19, as linkLength says.
    expect(made.text).toMatch(/^herald\.test\/[0-9A-Za-z]{7}$/);
    expect(made.text).toHaveLength(linkLength('herald.test'));
    expect(linkLength('herald.test')).toBe(19);
    const res = await follow(made.text);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://shop.example/sale?x=1');
  });

  it('makes a batch of links in one go, each its own code, in order', async () => {
    const made = await db.transaction().execute((tx) =>
      makeMany(
        tx,
        teamId(),
        Array.from({ length: 50 }, (_, i) => ({
          leadId,
          messageId: 1_000 + i,
          kind: 'link' as const,
          redirectTo: `https://shop.example/${i}`,
          phone,
        })),
      ),
    );
    expect(new Set(made.map((m) => m.code)).size).toBe(50);
    const res = await follow(made[7].text);
    expect(res.headers.location).toBe('https://shop.example/7');
    expect((await row(made[7].code)).message_id).toBe(1_007);
  });

  it('refuses a target that is not http(s)', async () => {
    for (const target of ['javascript:alert(1)', '//evil.example', '/relative', 'ftp://x.example/file', null]) {
      await expect(link('link', target)).rejects.toMatchObject({ code: 'validation_failed' });
    }
  });

  it('a click within 2 s of the link is a scanner, not engagement', async () => {
    const made = await link('link');
    expect((await follow(made.text, 'GET')).statusCode).toBe(302);
    await waitUntil('the early hit counted', async () => (await row(made.code)).other_hits === 1);
    expect(await row(made.code)).toMatchObject({ human_clicks: 0, first_clicked_at: null });
  });

  it('HEAD and preview agents are not engagement; a later human click is, once', async () => {
    const made = await link('link');
    const code = made.code;
    await age(code);
    expect((await follow(made.text, 'HEAD')).statusCode).toBe(302);
    for (const ua of ['Viber/21.0', 'TelegramBot (like TwitterBot)', 'WhatsApp/2.24.1', 'facebookexternalhit/1.1']) {
      expect((await follow(made.text, 'GET', ua)).statusCode).toBe(302);
    }
    await waitUntil('the bot hits counted', async () => (await row(code)).other_hits === 5);
    expect(await row(code)).toMatchObject({ human_clicks: 0, first_clicked_at: null });
    expect((await phoneValue()).clicked).not.toBe(true);

    expect((await follow(made.text)).statusCode).toBe(302);
    await waitUntil('the human click', async () => (await timeline('link_clicked')).length === 1);
    expect((await phoneValue()).clicked).toBe(true);
    expect((await row(code)).first_clicked_at).not.toBeNull();

    expect((await follow(made.text)).statusCode).toBe(302);
    await waitUntil('the second click counted', async () => (await row(code)).human_clicks === 2);
    expect(await timeline('link_clicked')).toHaveLength(1);
  });

  it('an unknown code is 404 on a short domain; a screen path on the app host is not a link', async () => {
    expect((await follow('go.nowhere.example/Zz9Zz9Zz9')).statusCode).toBe(404);
    expect((await follow('go.nowhere.example/Zz9Zz9Zz9')).body).toContain('<h1>');
    // `/settings` has the shape of a code; on the app host it gets what any screen path gets (the
    // web app's page when built, the JSON 404 without it), not the short links' 404 page.
    const screen = await follow('herald.test/settings');
    const other = await follow('herald.test/leads');
    expect(screen.statusCode).toBe(other.statusCode);
    expect(screen.headers['content-type']).toBe(other.headers['content-type']);
    // Built, both are the web app's page; not built, both the JSON 404 naming its own path.
    expect(screen.body.replace('/settings', '')).toBe(other.body.replace('/leads', ''));
  });

  it('serves a link on the team domain by Host header, and not on another host', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/short-url-domains',
      token: owner.token,
      payload: { url: 'https://Go.Shp.ua/' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ url: 'go.shp.ua', access: 'Enabled', link_length: 17 });
    const made = await link('link');
    expect(made.text).toMatch(/^go\.shp\.ua\/[0-9A-Za-z]{7}$/);
    expect(made.text).toHaveLength(17);
    expect((await follow(made.text)).statusCode).toBe(302);
    expect((await follow(`herald.test/${made.code}`)).statusCode).toBe(302);
    expect((await follow(`go.other.example/${made.code}`)).statusCode).toBe(404);
    await t.request({ method: 'DELETE', url: `/api/short-url-domains/${created.json().data.id}`, token: owner.token });
  });

  it('the unsubscribe page: GET changes nothing, POST blacklists the phone for the team', async () => {
    const made = await link('unsubscribe', null);
    await age(made.code);
    const page = await follow(made.text, 'GET');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await phoneValue()).ban).not.toBe(true);
    expect(await timeline('unsubscribed')).toHaveLength(0);

    const confirmed = await follow(made.text, 'POST');
    expect(confirmed.statusCode).toBe(200);
    expect((await phoneValue()).ban).toBe(true);
    const lead = await db.selectFrom('leads').select('status').where('id', '=', leadId).executeTakeFirstOrThrow();
    expect(lead.status).toBe('blacklisted');
    expect(await timeline('unsubscribed')).toHaveLength(1);
    expect((await row(made.code)).unsubscribed_at).not.toBeNull();

    await follow(made.text, 'POST');
    expect(await timeline('unsubscribed')).toHaveLength(1);
  });
});
