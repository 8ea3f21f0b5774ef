import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { linkLength } from '@herald/shared/short-links/short-link-code';
import type { DB } from '../../src/db/schema.ts';
import type { DomainProbe, ShortLinksModule } from '../../src/modules/short-links/index.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Settings → Short URL domains: the owner's and admins', one team's only, the plan's; a host is
 * one team's in the whole installation, and serves links only once it proves it is theirs.
 */
describe.each(databases)('short URL domains on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let checkDomains: ShortLinksModule['checkDomains'];
  /**
   * The network as the check sees it. A host in `pointsHere` points at this app: its HTTP proof is
   * asked of the app itself, by Host, as a real DNS record would route it. `files` are what other
   * servers answer; `txt` the TXT records. Anything else fails as an unknown host does.
   */
  const pointsHere = new Set<string>();
  const files = new Map<string, string>();
  const txt = new Map<string, string[][]>();
  const asked: string[] = [];
  const probe: DomainProbe = {
    async fetchText(host, path) {
      asked.push(`http://${host}${path}`);
      if (pointsHere.has(host)) {
        const res = await t.request({ method: 'GET', url: path, headers: { host } });
        return { status: res.statusCode, body: res.body };
      }
      const body = files.get(`${host}${path}`);
      if (body === undefined) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return { status: 200, body };
    },
    async resolveTxt(name) {
      const records = txt.get(name);
      if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      return records;
    },
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { domainProbe: probe, onShortLinks: (s) => (checkDomains = s.checkDomains) });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    pointsHere.clear();
    files.clear();
    txt.clear();
  });

  const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url: `/api/short-url-domains${url}`, token, payload });
  const list = async (token: string) => (await api(token, 'GET', '')).json().data;
  const linkHost = async (token: string) => (await api(token, 'GET', '/link-host')).json().host;
  const appHost = () => new URL(t.app.services.config.APP_URL).host;

  it('add, list in sort order, edit, delete; a bad or taken domain is refused with its field', async () => {
    const owner = await signupVerified(t);
    expect(await list(owner.token)).toEqual([]);
    const b = await api(owner.token, 'POST', '', { url: 'b.crud.example.ua', sort_order: 2 });
    expect(b.statusCode).toBe(201);
    expect(b.json()).toMatchObject({
      code: 'short_url_domain_created',
      data: { url: 'b.crud.example.ua', access: 'Enabled', verification: { status: 'waiting' } },
    });
    const a = await api(owner.token, 'POST', '', {
      url: 'http://A.crud.example.ua',
      sort_order: 1,
      access: 'Disabled',
    });
    expect((await list(owner.token)).map((d: { url: string }) => d.url)).toEqual([
      'a.crud.example.ua',
      'b.crud.example.ua',
    ]);

    const taken = await api(owner.token, 'POST', '', { url: 'B.CRUD.EXAMPLE.UA.' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.url[0].code).toBe('short_url_domain_taken');
    for (const url of ['not a domain', 'crud.example.ua/path', 'javascript:alert(1)', '', '10.0.0.1']) {
      const bad = await api(owner.token, 'POST', '', { url });
      expect(bad.statusCode, url).toBe(422);
      expect(bad.json().errors.url[0].code, url).toBe('short_url_domain_invalid');
    }

    const edited = await api(owner.token, 'PUT', `/${a.json().data.id}`, {
      access: 'Enabled',
      url: 'c.crud.example.ua',
    });
    expect(edited.json()).toMatchObject({
      code: 'short_url_domain_updated',
      data: { url: 'c.crud.example.ua', access: 'Enabled' },
    });
    expect((await api(owner.token, 'DELETE', `/${b.json().data.id}`)).json().code).toBe('short_url_domain_deleted');
    expect((await list(owner.token)).map((d: { url: string }) => d.url)).toEqual(['c.crud.example.ua']);
  });

  it('a host is one team’s in the installation: a second team claiming it is refused, nothing changed', async () => {
    const a = await signupVerified(t);
    const b = await signupVerified(t);
    const mine = await api(a.token, 'POST', '', { url: 'go.brand-a.example.ua' });
    expect(mine.statusCode).toBe(201);
    for (const url of ['go.brand-a.example.ua', 'https://GO.Brand-A.example.ua/', 'go.brand-a.example.ua.']) {
      const claimed = await api(b.token, 'POST', '', { url });
      expect(claimed.statusCode, url).toBe(422);
      expect(claimed.json().errors.url[0].code, url).toBe('short_url_domain_taken');
    }
    // Nor by renaming a domain of its own into it.
    const theirs = (await api(b.token, 'POST', '', { url: 'go.brand-b.example.ua' })).json().data;
    const renamed = await api(b.token, 'PUT', `/${theirs.id}`, { url: 'go.brand-a.example.ua' });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().errors.url[0].code).toBe('short_url_domain_taken');
    expect((await list(b.token)).map((d: { url: string }) => d.url)).toEqual(['go.brand-b.example.ua']);
    expect((await list(a.token)).map((d: { id: number }) => d.id)).toEqual([mine.json().data.id]);
  });

  it("the app's own host (with or without its port), a name under it and a host with a port are refused", async () => {
    const owner = await signupVerified(t);
    expect(appHost()).toBe('herald.test');
    const refusals: Array<[string, string]> = [
      ['herald.test', 'short_url_domain_app_host'],
      ['https://HERALD.test/', 'short_url_domain_app_host'],
      ['go.herald.test', 'short_url_domain_app_host'],
      ['herald.test:8080', 'short_url_domain_port'],
      ['go.port.example.ua:8080', 'short_url_domain_port'],
      ['https://go.port.example.ua:443', 'short_url_domain_port'],
    ];
    for (const [url, code] of refusals) {
      const res = await api(owner.token, 'POST', '', { url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.url[0].code, url).toBe(code);
    }
    // The messages are translated: the web finds each code in uk, en and ru (locales.test.ts).
    const ok = (await api(owner.token, 'POST', '', { url: 'go.port.example.ua' })).json().data;
    const moved = await api(owner.token, 'PUT', `/${ok.id}`, { url: 'herald.test' });
    expect(moved.json().errors.url[0].code).toBe('short_url_domain_app_host');
    expect(await list(owner.token)).toEqual([expect.objectContaining({ url: 'go.port.example.ua' })]);
  });

  it('waits for verification with its steps; the token served by this app (Host) verifies it, and links use it', async () => {
    const owner = await signupVerified(t);
    const host = 'go.proven.example.ua';
    const added = (await api(owner.token, 'POST', '', { url: host })).json().data;
    const v = added.verification;
    expect(v).toMatchObject({
      status: 'waiting',
      http_url: `http://${host}/.well-known/herald/${v.token}`,
      txt_name: `_herald.${host}`,
      txt_value: `herald-verify=${v.token}`,
      verified_at: null,
    });
    expect(v.token).toMatch(/^[0-9a-f]{32}$/);
    // Waiting: links stay on the app's host.
    expect(await linkHost(owner.token)).toBe(appHost());

    // Not pointed anywhere yet: the check fails, the domain keeps waiting, the answer says why.
    const early = await api(owner.token, 'POST', `/${added.id}/verify`);
    expect(early.statusCode).toBe(422);
    expect(early.json()).toMatchObject({ detail: { code: 'short_url_domain_not_proven', params: { host } } });
    expect(asked).toContain(v.http_url);
    expect((await list(owner.token))[0].verification).toMatchObject({
      status: 'waiting',
      checked_at: expect.any(String),
    });
    expect(await linkHost(owner.token)).toBe(appHost());

    // The domain now points at this app, which answers its token by Host.
    pointsHere.add(host);
    const verified = await api(owner.token, 'POST', `/${added.id}/verify`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      code: 'short_url_domain_verified',
      data: { verification: { status: 'verified', verified_at: expect.any(String) } },
    });
    expect(await linkHost(owner.token)).toBe(host);
  });

  it('a server that answers another token, or 200 with other text, leaves the domain waiting; a TXT record proves it', async () => {
    const owner = await signupVerified(t);
    const host = 'go.elsewhere.example.ua';
    const added = (await api(owner.token, 'POST', '', { url: host })).json().data;
    const path = `/.well-known/herald/${added.verification.token}`;
    files.set(`${host}${path}`, 'herald-verify=0123456789abcdef0123456789abcdef');
    txt.set(`_herald.${host}`, [['v=spf1 -all'], ['herald-verify=', 'ffffffffffffffffffffffffffffffff']]);
    expect((await api(owner.token, 'POST', `/${added.id}/verify`)).statusCode).toBe(422);
    files.set(`${host}${path}`, '<html>any page</html>');
    expect((await api(owner.token, 'POST', `/${added.id}/verify`)).statusCode).toBe(422);
    expect((await list(owner.token))[0].verification.status).toBe('waiting');
    expect(await linkHost(owner.token)).toBe(appHost());

    // The record split in chunks, as DNS keeps long strings, still proves it.
    const [head, tail] = [added.verification.txt_value.slice(0, 20), added.verification.txt_value.slice(20)];
    txt.set(`_herald.${host}`, [['v=spf1 -all'], [head, tail]]);
    expect((await api(owner.token, 'POST', `/${added.id}/verify`)).statusCode).toBe(200);
    expect(await linkHost(owner.token)).toBe(host);
  });

  it('the well-known file answers by Host: only the domain holding that token, nothing on other hosts', async () => {
    const a = await signupVerified(t);
    const host = 'go.wellknown.example.ua';
    const token = (await api(a.token, 'POST', '', { url: host })).json().data.verification.token;
    const get = (h: string, tok = token) =>
      t.request({ method: 'GET', url: `/.well-known/herald/${tok}`, headers: { host: h } });
    const served = await get(host);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/plain/);
    expect(served.body).toBe(`herald-verify=${token}`);
    expect((await get('GO.WELLKNOWN.example.ua')).body).toBe(`herald-verify=${token}`);
    // Another domain, the app's own host, another token: nothing to prove there.
    const b = await signupVerified(t);
    const other = (await api(b.token, 'POST', '', { url: 'go.other-wk.example.ua' })).json().data.verification.token;
    expect((await get('go.other-wk.example.ua')).statusCode).toBe(404);
    expect((await get(host, other)).statusCode).toBe(404);
    expect((await get(appHost())).statusCode).toBe(404);
    expect((await get('go.other-wk.example.ua', other)).statusCode).toBe(200);
  });

  it('the scheduled check verifies waiting domains that prove, and takes a verified one out of use after two failures', async () => {
    const owner = await signupVerified(t);
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    const host = 'go.scheduled.example.ua';
    const added = (await api(owner.token, 'POST', '', { url: host })).json().data;
    pointsHere.add(host);
    await checkDomains();
    expect((await list(owner.token))[0].verification.status).toBe('verified');
    expect(await linkHost(owner.token)).toBe(host);

    // The domain no longer points here: one failed re-check is forgiven (a passing DNS hiccup)…
    pointsHere.delete(host);
    await checkDomains();
    expect((await list(owner.token))[0].verification).toMatchObject({ status: 'verified', lost_at: null });
    // …the second in a row takes it out of use, and the tab says since when.
    await checkDomains();
    const lost = (await list(owner.token))[0];
    expect(lost.verification).toMatchObject({ status: 'waiting', verified_at: null, lost_at: expect.any(String) });
    expect(lost.access).toBe('Enabled');
    expect(await linkHost(owner.token)).toBe(appHost());
    // The owner and the admins are mailed, in uk/en/ru, with the way back; operators are not.
    const lostMails = () => t.mails().filter((m) => m.subject.includes(host));
    await waitUntil('the owner and the admin mailed', async () => lostMails().length === 2);
    expect(
      lostMails()
        .map((m) => m.to)
        .sort(),
    ).toEqual([owner.email, admin.email].sort());
    expect(lostMails().some((m) => m.to === operator.email)).toBe(false);
    expect(lostMails()[0].text).toContain('http://herald.test/settings/short-url-domains');
    expect(lostMails()[0].text).toContain('Перевірити зараз');

    // Proving again restores it and forgets the loss.
    pointsHere.add(host);
    expect((await api(owner.token, 'POST', `/${added.id}/verify`)).statusCode).toBe(200);
    expect((await list(owner.token))[0].verification).toMatchObject({ status: 'verified', lost_at: null });
  });

  it('a new url starts verification over with a new token', async () => {
    const owner = await signupVerified(t);
    const added = (await api(owner.token, 'POST', '', { url: 'go.rename1.example.ua' })).json().data;
    pointsHere.add('go.rename1.example.ua');
    await api(owner.token, 'POST', `/${added.id}/verify`);
    const renamed = (await api(owner.token, 'PUT', `/${added.id}`, { url: 'go.rename2.example.ua' })).json().data;
    expect(renamed.verification.status).toBe('waiting');
    expect(renamed.verification.token).not.toBe(added.verification.token);
    expect(await linkHost(owner.token)).toBe(appHost());
    // The switch alone keeps the proof.
    pointsHere.add('go.rename2.example.ua');
    await api(owner.token, 'POST', `/${added.id}/verify`);
    const off = (await api(owner.token, 'PUT', `/${added.id}`, { access: 'Disabled' })).json().data;
    expect(off.verification.status).toBe('verified');
    expect(await linkHost(owner.token)).toBe(appHost());
  });

  it('tells everyone who sends, operators too, the host of the team’s next links and their length', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    const host = async (token: string) => (await api(token, 'GET', '/link-host')).json();
    // No domain: the app's own host.
    const own = await host(operator.token);
    expect(own.host).toBe(appHost());
    const long = 'links.a-rather-long-brand-name.example.ua';
    const off = (
      await api(owner.token, 'POST', '', { url: 'off.lh.example.ua', sort_order: 1, access: 'Disabled' })
    ).json();
    const on = (await api(owner.token, 'POST', '', { url: long, sort_order: 2 })).json();
    pointsHere.add(long);
    pointsHere.add('off.lh.example.ua');
    for (const d of [off, on]) await api(owner.token, 'POST', `/${d.data.id}/verify`);
    expect(await host(operator.token)).toEqual({ host: long, link_length: linkLength(long) });
    expect(linkLength(long)).toBeGreaterThan(17);
    // Another team's links stay on the app's host.
    expect((await host((await signupVerified(t)).token)).host).toBe(own.host);
  });

  it("another team's domain is 404 and unchanged; operators get 403, admins manage", async () => {
    const owner = await signupVerified(t);
    const mine = (await api(owner.token, 'POST', '', { url: 'mine.iso.example.ua' })).json().data;
    const stranger = await signupVerified(t);
    expect((await api(stranger.token, 'PUT', `/${mine.id}`, { url: 'theirs.iso.example.ua' })).statusCode).toBe(404);
    expect((await api(stranger.token, 'POST', `/${mine.id}/verify`)).statusCode).toBe(404);
    expect((await api(stranger.token, 'DELETE', `/${mine.id}`)).statusCode).toBe(404);
    expect(await list(stranger.token)).toEqual([]);
    expect(await list(owner.token)).toEqual([expect.objectContaining({ id: mine.id, url: 'mine.iso.example.ua' })]);

    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await api(operator.token, 'GET', '')).statusCode).toBe(403);
    expect((await api(operator.token, 'POST', '', { url: 'op.iso.example.ua' })).statusCode).toBe(403);
    expect((await api(operator.token, 'POST', `/${mine.id}/verify`)).statusCode).toBe(403);
    expect((await api(operator.token, 'DELETE', `/${mine.id}`)).statusCode).toBe(403);
    const admin = await addMember(t, owner.token, 'team_admin');
    expect((await api(admin.token, 'POST', '', { url: 'admin.iso.example.ua' })).statusCode).toBe(201);
  });

  it('a plan without short-url-domain refuses with the translated 422 and says so in has-access', async () => {
    const owner = await signupVerified(t);
    expect((await api(owner.token, 'GET', '/has-access')).json()).toEqual({ access: true });
    // The Starter Pack (id 2) has no own domains.
    await db.updateTable('subscriptions').set({ plan_id: 2 }).where('team_id', '=', owner.user.team_id).execute();
    const refused = await api(owner.token, 'POST', '', { url: 'gated.example.ua' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'plan_feature_missing',
      detail: { code: 'plan_feature_short_url_domain' },
    });
    expect((await api(owner.token, 'GET', '/has-access')).json()).toEqual({ access: false });
    expect(await list(owner.token)).toEqual([]);
  });

  it('one host in the whole installation, even written straight to the table', async () => {
    const a = await signupVerified(t);
    const b = await signupVerified(t);
    await db.insertInto('short_url_domains').values({ team_id: a.user.team_id, url: 'go.direct.example.ua' }).execute();
    await expect(
      sql`insert into short_url_domains (team_id, url) values (${b.user.team_id}, 'go.direct.example.ua')`.execute(db),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
