import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkLength } from '@herald/shared/short-links/short-link-code';
import type { DB } from '../../src/db/schema.ts';
import type { DomainProbe, ShortLinksModule } from '../../src/modules/short-links/index.ts';
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
  // Every domain points at this app: its proof is asked of the app itself, by Host.
  const probe: DomainProbe = {
    async fetchText(host, path) {
      const res = await t.request({ method: 'GET', url: path, headers: { host } });
      return { status: res.statusCode, body: res.body };
    },
    resolveTxt: async () => [],
  };

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {},
      {
        domainProbe: probe,
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

  const addDomain = async (token: string, url: string) => {
    const created = await t.request({ method: 'POST', url: '/api/short-url-domains', token, payload: { url } });
    expect(created.statusCode).toBe(201);
    return created.json().data as { id: number; url: string };
  };
  const verify = async (token: string, id: number) =>
    (await t.request({ method: 'POST', url: `/api/short-url-domains/${id}/verify`, token })).statusCode;

  it('serves a link on the team domain by Host header, and not on another host', async () => {
    const domain = await addDomain(owner.token, 'https://Go.Shp.ua/');
    expect(domain).toMatchObject({ url: 'go.shp.ua', access: 'Enabled', link_length: 17 });
    // Waiting for verification: links are still made on the app's host.
    expect((await link('link')).host).toBe('herald.test');
    expect(await verify(owner.token, domain.id)).toBe(200);
    const made = await link('link');
    expect(made.text).toMatch(/^go\.shp\.ua\/[0-9A-Za-z]{7}$/);
    expect(made.text).toHaveLength(17);
    expect((await follow(made.text)).statusCode).toBe(302);
    expect((await follow(`herald.test/${made.code}`)).statusCode).toBe(302);
    expect((await follow(`go.other.example/${made.code}`)).statusCode).toBe(404);
    // The domain stops proving (a re-check took it out of use): new links go to the app's host,
    // and a link already sent on the domain still works while the domain points here.
    await db
      .updateTable('short_url_domains')
      .set({ verified_at: null, lost_at: new Date() })
      .where('id', '=', domain.id)
      .execute();
    expect((await link('link')).host).toBe('herald.test');
    expect((await follow(made.text)).statusCode).toBe(302);
    await t.request({ method: 'DELETE', url: `/api/short-url-domains/${domain.id}`, token: owner.token });
  });

  it("a link another team made on a host before hosts were proven is not served there once it is this team's", async () => {
    // Before decision 028 a second team could add the same host; its links carry that host.
    const intruder = await signupVerified(t);
    const mine = await addDomain(owner.token, 'go.brand.example.ua');
    const [planted] = await db
      .insertInto('short_links')
      .values({
        team_id: intruder.user.team_id,
        kind: 'link',
        host: 'go.brand.example.ua',
        code: 'Phish01',
        redirect_to: 'https://phish.example/login',
      })
      .returning('code')
      .execute();
    await age(planted.code);
    // Nobody has proven the host: the link is not served on it.
    expect((await follow(`go.brand.example.ua/${planted.code}`)).statusCode).toBe(404);
    expect(await verify(owner.token, mine.id)).toBe(200);
    const phish = await follow(`go.brand.example.ua/${planted.code}`);
    expect(phish.statusCode).toBe(404);
    expect(phish.headers.location).toBeUndefined();
    // This team's own links are served there.
    const made = await link('link');
    expect(made.host).toBe('go.brand.example.ua');
    expect((await follow(made.text)).statusCode).toBe(302);
    // The intruder's link still answers on the app's own host, where every team's links do.
    expect((await follow(`herald.test/${planted.code}`)).headers.location).toBe('https://phish.example/login');
    await t.request({ method: 'DELETE', url: `/api/short-url-domains/${mine.id}`, token: owner.token });
  });

  it('a Cyrillic path and an IDN host are stored normalised and clicked through with an ASCII Location', async () => {
    const cases: Array<[string, string]> = [
      [
        'https://shop.example.ua/акція?знижка=10',
        'https://shop.example.ua/%D0%B0%D0%BA%D1%86%D1%96%D1%8F?%D0%B7%D0%BD%D0%B8%D0%B6%D0%BA%D0%B0=10',
      ],
      ['https://магазин.укр/', 'https://xn--80aairftm.xn--j1amh/'],
    ];
    for (const [target, normalised] of cases) {
      const made = await link('link', target);
      expect((await row(made.code)).redirect_to).toBe(normalised);
      await age(made.code);
      const res = await follow(made.text);
      expect(res.statusCode, target).toBe(302);
      expect(res.headers.location).toBe(normalised);
      await waitUntil('the click counted', async () => (await row(made.code)).human_clicks === 1);
    }
    const batch = await db
      .transaction()
      .execute((tx) =>
        makeMany(tx, teamId(), [
          { leadId, messageId: null, kind: 'link', redirectTo: 'https://магазин.укр/акція', phone },
        ]),
      );
    expect((await row(batch[0].code)).redirect_to).toBe(
      'https://xn--80aairftm.xn--j1amh/%D0%B0%D0%BA%D1%86%D1%96%D1%8F',
    );
  });

  it('a row stored raw before targets were normalised still redirects; one that cannot answers the error page and counts no click', async () => {
    const plant = async (code: string, target: string) => {
      await db
        .insertInto('short_links')
        .values({
          team_id: teamId(),
          lead_id: leadId,
          kind: 'link',
          host: 'herald.test',
          code,
          redirect_to: target,
          phone,
        })
        .execute();
      await age(code);
    };
    await plant('RawCyr01', 'https://shop.example.ua/акція?знижка=10');
    const raw = await follow('herald.test/RawCyr01');
    expect(raw.statusCode).toBe(302);
    expect(raw.headers.location).toBe(
      'https://shop.example.ua/%D0%B0%D0%BA%D1%86%D1%96%D1%8F?%D0%B7%D0%BD%D0%B8%D0%B6%D0%BA%D0%B0=10',
    );

    await plant('Broken01', 'https://exa mple.ua/x');
    const broken = await follow('herald.test/Broken01', 'GET', BROWSER);
    expect(broken.statusCode).toBe(500);
    expect(broken.headers['content-type']).toMatch(/^text\/html/);
    expect(broken.body).toContain('<h1>Не вдалося відкрити посилання</h1>');
    const english = await t.request({
      method: 'GET',
      url: '/Broken01',
      headers: { host: 'herald.test', 'user-agent': BROWSER, 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(english.body).toContain('The link could not be opened');
    // Waited past the batch: nothing was counted for the link that did not redirect.
    await waitUntil('the raw link click counted', async () => (await row('RawCyr01')).human_clicks === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await row('Broken01')).toMatchObject({ human_clicks: 0, other_hits: 0, first_clicked_at: null });
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
