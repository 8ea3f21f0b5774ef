import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainProbe } from '../../src/modules/short-links/domain-proof.ts';
import { signupVerified } from '../support/accounts.ts';
import { createGateway } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const LOCALES = ['uk', 'en', 'ru'].map(
  (lang) =>
    JSON.parse(
      readFileSync(new URL(`../../../web/src/locales/${lang}/messages.json`, import.meta.url), 'utf8'),
    ) as Record<string, string>,
);

/**
 * What the campaign tab's pickers offer, held on the server too (decision 035): the sender is one
 * of the team's active alpha names or the chosen gateway's own sender; a step's short-URL domain is
 * one of the team's verified, enabled domains.
 */
describe.each(databases)('campaign screens: sender and step domain on %s', (kind) => {
  let t: TestApp;
  // Every domain points at this app (a verification asks the app itself, by Host) but those named
  // `w-…`, which stay waiting whenever the start's background check of all domains happens to run.
  const probe: DomainProbe = {
    async fetchText(host, path) {
      if (host.startsWith('w-')) return { status: 404, body: '' };
      const res = await t.request({ method: 'GET', url: path, headers: { host } });
      return { status: res.statusCode, body: res.body };
    },
    async resolveTxt(name) {
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
  };
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { domainProbe: probe });
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.app.services.database.db;
  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.request({ method, url: `/api${url}`, token, ...(payload === undefined ? {} : { payload: payload as object }) });

  function refused(res: { statusCode: number; json(): { detail?: { code: string } } }, status: number, code: string) {
    expect(res.statusCode).toBe(status);
    expect(res.json().detail?.code).toBe(code);
    for (const messages of LOCALES) expect(messages[code]).toBeTruthy();
  }

  /** An alpha name of the team in a review state (1 approved, 2 on review), as the review leaves it. */
  const alphaName = async (teamId: number, name: string, status: 1 | 2) =>
    db().insertInto('alpha_names').values({ team_id: teamId, name, status }).execute();

  const campaignRow = (id: number) =>
    db().selectFrom('campaigns').select(['sender', 'gateway_id']).where('id', '=', id).executeTakeFirstOrThrow();

  it("takes the gateway's own sender when it is the only one, then any approved name or that number, nothing else", async () => {
    const owner = await signupVerified(t);
    const other = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim',
      credentials: { from: '+380501112233' },
    });
    const created = await call(owner.token, 'POST', '/campaigns', {});
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    // The gateway's number is the one sender there is: chosen without asking.
    expect(created.json()).toMatchObject({ gateway_id: gateway.id, sender: '+380501112233' });

    await alphaName(owner.user.team_id, 'ShopUA', 1);
    await alphaName(owner.user.team_id, 'Waiting', 2);
    await alphaName(other.user.team_id, 'TheirName', 1);
    const set = (sender: string, extra: Record<string, unknown> = {}) =>
      call(owner.token, 'PUT', `/campaigns/${id}`, { sender, ...extra });

    expect((await set('shopua')).json().sender).toBe('ShopUA');
    // The same number however it is written.
    expect((await set('+380 50 111 22 33')).json().sender).toBe('+380501112233');
    for (const sender of ['+380509999999', 'Waiting', 'TheirName', 'Made Up'])
      refused(await set(sender), 422, 'campaign_sender_unusable');
    expect((await campaignRow(id)).sender).toBe('+380501112233');

    // Another gateway has no number of its own: the first one's number cannot follow it there.
    const second = await createGateway(t, owner.token, { type: 'simulator', name: 'Bare' });
    refused(
      await call(owner.token, 'PUT', `/campaigns/${id}`, { gateway_id: second.id }),
      422,
      'campaign_sender_unusable',
    );
    expect(await campaignRow(id)).toEqual({ sender: '+380501112233', gateway_id: gateway.id });
    const moved = await set('ShopUA', { gateway_id: second.id });
    expect(moved.statusCode).toBe(200);
    expect(await campaignRow(id)).toEqual({ sender: 'ShopUA', gateway_id: second.id });
    // No sender: the gateway's own.
    expect((await set('')).json().sender).toBeNull();
  });

  it("keeps a step's domain only when it is the team's, verified and enabled; another team's is not found", async () => {
    const owner = await signupVerified(t);
    const other = await signupVerified(t);
    await createGateway(t, owner.token, { type: 'simulator', name: 'Sim' });
    const domain = async (token: string, url: string) => {
      const res = await call(token, 'POST', '/short-url-domains', { url });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    };
    const host = `go${Math.floor(Math.random() * 1e9)}.example.com`;
    const waiting = await domain(owner.token, `w-${host}`);
    const proven = await domain(owner.token, host);
    expect((await call(owner.token, 'POST', `/short-url-domains/${proven}/verify`)).statusCode).toBe(200);
    const theirs = await domain(other.token, `their-${host}`);
    expect((await call(other.token, 'POST', `/short-url-domains/${theirs}/verify`)).statusCode).toBe(200);

    const id = (await call(owner.token, 'POST', '/campaigns', {})).json().id as number;
    const step = (short_url_domain_id: number | null) =>
      call(owner.token, 'POST', `/campaigns/${id}/campaign-steps`, {
        message: 'Sale {{link}}',
        redirect_to: 'https://shop.example.com/sale',
        short_url_domain_id,
      });
    refused(await step(waiting), 422, 'campaign_domain_unusable');
    refused(await step(theirs), 404, 'short_url_domain_not_found');
    const saved = await step(proven);
    expect(saved.statusCode).toBe(201);
    expect(saved.json().short_url_domain_id).toBe(proven);
    const stepId = saved.json().id as number;
    const stored = () =>
      db()
        .selectFrom('campaign_steps')
        .select('short_url_domain_id')
        .where('id', '=', stepId)
        .executeTakeFirstOrThrow();

    refused(
      await call(owner.token, 'PUT', `/campaign-steps/${stepId}`, { short_url_domain_id: theirs }),
      404,
      'short_url_domain_not_found',
    );
    refused(
      await call(owner.token, 'PUT', `/campaign-steps/${stepId}`, { short_url_domain_id: waiting }),
      422,
      'campaign_domain_unusable',
    );
    expect((await stored()).short_url_domain_id).toBe(proven);
    // Switched off in the settings: no new links go there, so no step may choose it.
    expect((await call(owner.token, 'PUT', `/short-url-domains/${proven}`, { access: 'Disabled' })).statusCode).toBe(
      200,
    );
    refused(
      await call(owner.token, 'PUT', `/campaign-steps/${stepId}`, { message: 'Sale now {{link}}' }),
      422,
      'campaign_domain_unusable',
    );
    // The default (the app's own host) is always there.
    const back = await call(owner.token, 'PUT', `/campaign-steps/${stepId}`, { short_url_domain_id: null });
    expect(back.statusCode).toBe(200);
    expect((await stored()).short_url_domain_id).toBeNull();
  });
});
