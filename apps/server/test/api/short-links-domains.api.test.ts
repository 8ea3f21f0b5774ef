import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkLength } from '@herald/shared/short-links/short-link-code';
import type { DB } from '../../src/db/schema.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/** Settings → Short URL domains: the owner's and admins', one team's only, and the plan's. */
describe.each(databases)('short URL domains on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  const api = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url: `/api/short-url-domains${url}`, token, payload });
  const list = async (token: string) => (await api(token, 'GET', '')).json().data;

  it('add, list in sort order, edit, delete; a bad or taken domain is refused with its field', async () => {
    const owner = await signupVerified(t);
    expect(await list(owner.token)).toEqual([]);
    const b = await api(owner.token, 'POST', '', { url: 'b.example.ua', sort_order: 2 });
    expect(b.statusCode).toBe(201);
    expect(b.json()).toMatchObject({
      code: 'short_url_domain_created',
      data: { url: 'b.example.ua', access: 'Enabled' },
    });
    const a = await api(owner.token, 'POST', '', { url: 'http://A.example.ua', sort_order: 1, access: 'Disabled' });
    expect((await list(owner.token)).map((d: { url: string }) => d.url)).toEqual(['a.example.ua', 'b.example.ua']);

    const taken = await api(owner.token, 'POST', '', { url: 'B.EXAMPLE.UA' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.url[0].code).toBe('short_url_domain_taken');
    for (const url of ['not a domain', 'example.ua/path', 'javascript:alert(1)', '']) {
      const bad = await api(owner.token, 'POST', '', { url });
      expect(bad.statusCode).toBe(422);
    }

    const edited = await api(owner.token, 'PUT', `/${a.json().data.id}`, { access: 'Enabled', url: 'c.example.ua' });
    expect(edited.json()).toMatchObject({
      code: 'short_url_domain_updated',
      data: { url: 'c.example.ua', access: 'Enabled' },
    });
    expect((await api(owner.token, 'DELETE', `/${b.json().data.id}`)).json().code).toBe('short_url_domain_deleted');
    expect((await list(owner.token)).map((d: { url: string }) => d.url)).toEqual(['c.example.ua']);
  });

  it('tells everyone who sends, operators too, the host of the team’s next links and their length', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    const host = async (token: string) => (await api(token, 'GET', '/link-host')).json();
    // No domain: the app's own host.
    const own = await host(operator.token);
    expect(own.host).toBe(new URL(t.app.services.config.APP_URL).host);
    const long = 'links.a-rather-long-brand-name.example.ua';
    await api(owner.token, 'POST', '', { url: 'off.example.ua', sort_order: 1, access: 'Disabled' });
    await api(owner.token, 'POST', '', { url: long, sort_order: 2 });
    expect(await host(operator.token)).toEqual({ host: long, link_length: linkLength(long) });
    expect(linkLength(long)).toBeGreaterThan(17);
    // Another team's links stay on the app's host.
    expect((await host((await signupVerified(t)).token)).host).toBe(own.host);
  });

  it("another team's domain is 404 and unchanged; operators get 403, admins manage", async () => {
    const owner = await signupVerified(t);
    const mine = (await api(owner.token, 'POST', '', { url: 'mine.example.ua' })).json().data;
    const stranger = await signupVerified(t);
    expect((await api(stranger.token, 'PUT', `/${mine.id}`, { url: 'theirs.example.ua' })).statusCode).toBe(404);
    expect((await api(stranger.token, 'DELETE', `/${mine.id}`)).statusCode).toBe(404);
    expect(await list(stranger.token)).toEqual([]);
    expect(await list(owner.token)).toEqual([expect.objectContaining({ id: mine.id, url: 'mine.example.ua' })]);

    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await api(operator.token, 'GET', '')).statusCode).toBe(403);
    expect((await api(operator.token, 'POST', '', { url: 'op.example.ua' })).statusCode).toBe(403);
    expect((await api(operator.token, 'DELETE', `/${mine.id}`)).statusCode).toBe(403);
    const admin = await addMember(t, owner.token, 'team_admin');
    expect((await api(admin.token, 'POST', '', { url: 'admin.example.ua' })).statusCode).toBe(201);
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
});
