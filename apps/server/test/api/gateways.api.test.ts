import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, twilioGatewayBody } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const URL_BASE = '/api/config/gateway/messaging';

describe.each(databases)('SMS gateway settings on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    // The environment's default base URL serves gateways that name none.
    t = await startTestApp(kind, { GATEWAY_TIMEOUT_MS: '2000', TWILIO_BASE_URL: twilio.url });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const twilioGateway = (over: Record<string, unknown> = {}) => twilioGatewayBody(twilio, over);

  it('offers the gateway types and their fields in config/general', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({ method: 'GET', url: '/api/config/general', token: owner.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timezones_js).toContain('Europe/Kyiv');
    expect(body.campaign_gateway_list.map((g: { key: string }) => g.key)).toEqual([
      'simulator',
      'twilio',
      'telnyx',
      'turbosms',
      'smsclub',
      'alphasms',
      'generic_http',
    ]);
    const twilioFields = body.setting_gateway_message_fields.twilio.map((f: { key: string; secret: boolean }) => [
      f.key,
      f.secret,
    ]);
    expect(twilioFields).toEqual([
      ['sid', false],
      ['token', true],
      ['from_twilio', false],
      ['parts_per_second', false],
      ['base_url', false],
    ]);
    expect(body.campaign_status_list.map((o: { key: string }) => o.key)).toEqual([
      'draft',
      'scheduled',
      'processing',
      'active',
      'paused',
      'completed',
      'failed',
      'rejected',
    ]);
    // The template types the templates module accepts.
    expect(body.sms_templates_types.map((o: { key: string }) => o.key)).toEqual([
      'promotion',
      'service',
      'reminder',
      'other',
    ]);
  });

  it('lists nothing, then adds, edits and deletes a gateway; the secret never comes back', async () => {
    const owner = await signupVerified(t);
    expect((await t.request({ method: 'GET', url: URL_BASE, token: owner.token })).json()).toEqual({ data: [] });
    const created = await t.request({ method: 'POST', url: URL_BASE, token: owner.token, payload: twilioGateway() });
    expect(created.statusCode).toBe(201);
    const gateway = created.json();
    expect(gateway).toMatchObject({
      name: 'Twilio',
      type: 'twilio',
      active: true,
      default: false,
      allow_lookup: false,
      params: { sid: twilio.account.sid, from_twilio: '+15005550006', base_url: twilio.url },
      credentials_set: ['token'],
      webhook_urls: {
        status: `http://herald.test/api/webhooks/gateways/${gateway.id}/status`,
        inbound: `http://herald.test/api/webhooks/gateways/${gateway.id}/inbound`,
      },
    });
    expect(created.body).not.toContain(twilio.account.token);

    // An edit that leaves the secret empty keeps it: the connection test still passes.
    const edited = await t.request({
      method: 'PUT',
      url: `${URL_BASE}/${gateway.id}`,
      token: owner.token,
      payload: twilioGateway({
        name: 'Twilio US',
        credentials: { sid: twilio.account.sid, token: '', from_twilio: '+15005550007', base_url: twilio.url },
      }),
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Twilio US',
      params: { from_twilio: '+15005550007' },
      credentials_set: ['token'],
    });
    const tested = await t.request({ method: 'POST', url: `${URL_BASE}/${gateway.id}/test`, token: owner.token });
    expect(tested.json()).toEqual({ ok: true, code: 'gateway_connected', message: 'Connected' });

    const removed = await t.request({ method: 'DELETE', url: `${URL_BASE}/${gateway.id}`, token: owner.token });
    expect(removed.json()).toEqual({ message: 'Gateway deleted', code: 'gateway_deleted' });
    expect((await t.request({ method: 'GET', url: URL_BASE, token: owner.token })).json().data).toEqual([]);
  });

  it('refuses a gateway without its required fields, naming each', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({
      method: 'POST',
      url: URL_BASE,
      token: owner.token,
      payload: { type: 'twilio', name: 'T', credentials: { sid: 'AC1', base_url: 'ftp://x' } },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'credentials.base_url',
      'credentials.from_twilio',
      'credentials.token',
    ]);
    expect(res.json().errors['credentials.token'][0]).toEqual({
      code: 'gateway_field_required',
      params: { field: 'Auth token' },
    });
  });

  it('reports a refused credential on "test connection"', async () => {
    const owner = await signupVerified(t);
    const gateway = await createGateway(
      t,
      owner.token,
      twilioGateway({
        credentials: { sid: twilio.account.sid, token: 'wrong', from_twilio: '+1', base_url: twilio.url },
      }),
    );
    const res = await t.request({ method: 'POST', url: `${URL_BASE}/${gateway.id}/test`, token: owner.token });
    expect(res.json()).toMatchObject({ ok: false, code: 'gateway_auth_failed', detail: 'Authenticate' });
  });

  it("uses the environment's base URL when a gateway names none", async () => {
    const owner = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, {
      type: 'twilio',
      name: 'T',
      credentials: { sid: twilio.account.sid, token: twilio.account.token, from_twilio: '+1' },
    });
    const before = twilio.calls.length;
    const res = await t.request({ method: 'POST', url: `${URL_BASE}/${gateway.id}/test`, token: owner.token });
    expect(res.json()).toMatchObject({ ok: true });
    expect(twilio.calls.length).toBe(before + 1);
  });

  it('keeps the credential sealed in the database', async () => {
    const owner = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, twilioGateway());
    const db = t.app.services.database.db;
    const row = await db.selectFrom('gateways').selectAll().where('id', '=', gateway.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(twilio.account.token);
    expect(row.credentials).toMatch(/^v1\./);
  });

  it('keeps one default per team; the default is locked, and must be an active sending gateway', async () => {
    const owner = await signupVerified(t);
    const first = await createGateway(t, owner.token, { type: 'simulator', name: 'A', default: true });
    const second = await createGateway(t, owner.token, { type: 'simulator', name: 'B', default: true });
    const list = (await t.request({ method: 'GET', url: URL_BASE, token: owner.token })).json().data;
    expect(list.map((g: { id: number; default: boolean }) => [g.id, g.default])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: `${URL_BASE}/${second.id}`,
        token: owner.token,
        ...(method === 'PUT' ? { payload: { type: 'simulator', name: 'C' } } : {}),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual({ code: 'gateway_default_locked' });
    }
    const inactive = await t.request({
      method: 'POST',
      url: URL_BASE,
      token: owner.token,
      payload: { type: 'simulator', name: 'D', default: true, active: false },
    });
    expect(inactive.json().errors.default).toEqual([{ code: 'gateway_default_unusable' }]);
    // Saved at once, each made default: every save succeeds and one default remains.
    const concurrent = await Promise.all(
      ['E', 'F', 'G'].map((name) =>
        t.request({
          method: 'POST',
          url: URL_BASE,
          token: owner.token,
          payload: { type: 'simulator', name, default: true },
        }),
      ),
    );
    expect(concurrent.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const defaults = (await t.request({ method: 'GET', url: URL_BASE, token: owner.token }))
      .json()
      .data.filter((g: { default: boolean }) => g.default);
    expect(defaults).toHaveLength(1);
    const lookupOnly = await t.request({
      method: 'POST',
      url: URL_BASE,
      token: owner.token,
      payload: { type: 'turbosms', name: 'E', allow_lookup: true, credentials: { access_token: 'x', from: 'Shop' } },
    });
    expect(lookupOnly.json().errors.allow_lookup).toEqual([{ code: 'gateway_lookup_unsupported' }]);
  });

  it('lets operators list only the gateways that send, and nothing else', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    const sending = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sends',
      default: true,
      credentials: { from: 'Shop' },
    });
    await createGateway(t, owner.token, { type: 'simulator', name: 'Lookups', allow_lookup: true });
    await createGateway(t, owner.token, { type: 'simulator', name: 'Off', active: false });
    expect((await t.request({ method: 'GET', url: URL_BASE, token: operator.token })).statusCode).toBe(403);
    expect(
      (
        await t.request({
          method: 'POST',
          url: URL_BASE,
          token: operator.token,
          payload: { type: 'simulator', name: 'X' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'DELETE', url: `${URL_BASE}/${sending.id}`, token: operator.token })).statusCode,
    ).toBe(403);
    const offered = await t.request({ method: 'GET', url: `${URL_BASE}/sending`, token: operator.token });
    expect(offered.json()).toEqual({
      data: [{ id: sending.id, name: 'Sends', type: 'simulator', default: true, from: 'Shop' }],
    });
  });

  it("answers 404 for another team's gateway and changes nothing", async () => {
    const ownerA = await signupVerified(t);
    const ownerB = await signupVerified(t);
    const gateway = await createGateway(t, ownerA.token, twilioGateway());
    const before = (await t.request({ method: 'GET', url: URL_BASE, token: ownerA.token })).body;
    const callsBefore = twilio.calls.length;
    for (const [method, url] of [
      ['PUT', `${URL_BASE}/${gateway.id}`],
      ['DELETE', `${URL_BASE}/${gateway.id}`],
      ['POST', `${URL_BASE}/${gateway.id}/test`],
    ] as const) {
      const res = await t.request({
        method,
        url,
        token: ownerB.token,
        ...(method === 'PUT' ? { payload: twilioGateway({ name: 'stolen' }) } : {}),
      });
      expect([method, res.statusCode]).toEqual([method, 404]);
    }
    expect((await t.request({ method: 'GET', url: URL_BASE, token: ownerB.token })).json().data).toEqual([]);
    expect((await t.request({ method: 'GET', url: URL_BASE, token: ownerA.token })).body).toBe(before);
    // B's "test connection" never reached A's provider account.
    expect(twilio.calls.length).toBe(callsBefore);
  });
});
