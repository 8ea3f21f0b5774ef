import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueWithTrial } from '../fixtures/plans/catalogue.ts';
import { addMember, signupVerified, uniqueEmail } from '../support/accounts.ts';
import { createGateway } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

type Account = Awaited<ReturnType<typeof signupVerified>>;

describe.each(databases)('alpha names on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let admin: Account;
  const adminEmail = uniqueEmail('installation-admin');
  beforeAll(async () => {
    t = await startTestApp(kind, {
      HERALD_ADMIN_EMAILS: `someone@example.com, ${adminEmail.toUpperCase()}`,
      // Two names a team on the Trial, so the third reaches the plan's limit.
      HERALD_PLANS_FILE: catalogueWithTrial({ 'alpha-name-limit': 2 }),
    });
    owner = await signupVerified(t);
    admin = await signupVerified(t, adminEmail);
  });
  afterAll(() => t?.close());

  const store = (token: string, name: string) =>
    t.request({ method: 'POST', url: '/api/alpha-names/store', token, payload: { name } });
  const list = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/alpha-names', token })).json().data;
  const review = (token: string, id: number, decision: 'approve' | 'reject') =>
    t.request({ method: 'POST', url: `/api/admin/alpha-names/${id}/review`, token, payload: { decision } });

  it('a new name waits on review; the installation admin approves it and it becomes the default', async () => {
    const created = await store(owner.token, 'Shop.UA');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      status: 'ok',
      code: 'alpha_name_created',
      data: { name: 'Shop.UA', status: 2, active: false, default: false },
    });
    const id = created.json().data.id;

    const queue = await t.request({ method: 'GET', url: '/api/admin/alpha-names', token: admin.token });
    expect(queue.json().data).toContainEqual(
      expect.objectContaining({ id, name: 'Shop.UA', team_id: owner.user.team_id }),
    );
    expect((await t.request({ method: 'GET', url: '/api/admin/access', token: admin.token })).json()).toEqual({
      admin: true,
    });
    expect((await t.request({ method: 'GET', url: '/api/admin/access', token: owner.token })).json()).toEqual({
      admin: false,
    });

    expect((await review(admin.token, id, 'approve')).json()).toMatchObject({ status: 1, active: true, default: true });
    expect((await review(admin.token, id, 'reject')).statusCode).toBe(409);
    expect((await review(admin.token, 999_999, 'reject')).statusCode).toBe(404);
    expect(await list(owner.token)).toEqual([expect.objectContaining({ id, status: 1, default: true })]);
  });

  it('the default is only ever an active name, one per team', async () => {
    const second = (await store(owner.token, 'Promo & Co')).json().data.id;
    const notActive = await t.request({ method: 'PUT', url: `/api/alpha-names/default/${second}`, token: owner.token });
    expect(notActive.statusCode).toBe(422);
    expect(notActive.json().detail.code).toBe('alpha_name_not_active');

    await review(admin.token, second, 'approve');
    const changed = await t.request({ method: 'PUT', url: `/api/alpha-names/default/${second}`, token: owner.token });
    expect(changed.json()).toMatchObject({ code: 'alpha_name_default_changed', data: { id: second, default: true } });
    const names = await list(owner.token);
    expect(names.filter((n: { default: boolean }) => n.default).map((n: { id: number }) => n.id)).toEqual([second]);
  });

  it('answers limit once the plan allows no more, and a rejected name frees its place', async () => {
    const limited = await store(owner.token, 'ThirdName');
    expect(limited.statusCode).toBe(200);
    expect(limited.json()).toMatchObject({ status: 'limit', code: 'alpha_names_limit_reached' });
    expect((await list(owner.token)).map((n: { name: string }) => n.name)).not.toContain('ThirdName');

    const other = await signupVerified(t);
    await store(other.token, 'One');
    const two = (await store(other.token, 'Two')).json().data.id;
    expect((await store(other.token, 'Three')).json().status).toBe('limit');
    await review(admin.token, two, 'reject');
    expect((await store(other.token, 'Three')).json().status).toBe('ok');
    const rejected = (await list(other.token)).find((n: { id: number }) => n.id === two);
    expect(rejected).toMatchObject({ status: 0, active: false, default: false });
  });

  it.each([
    ['too long', 'TwelveLetter'],
    ['Cyrillic', 'Магазин'],
    ['digits only', '12345'],
    ['a mark outside . - _ &', 'Shop!'],
    ['blank', '   '],
  ])('refuses a name that carriers would not take: %s', async (_, name) => {
    const res = await store(owner.token, name);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name[0].code).toMatch(/alpha_name_invalid|name_required/);
  });

  it('refuses a name the team already has, in any case', async () => {
    const other = await signupVerified(t);
    await store(other.token, 'Kvitka');
    const again = await store(other.token, 'KVITKA');
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.name[0].code).toBe('alpha_name_taken');
  });

  it("keeps teams apart and operators out: another team's name is 404, an operator gets 403", async () => {
    const names = await list(owner.token);
    const id = names[0].id;
    const other = await signupVerified(t);
    expect(
      (await t.request({ method: 'PUT', url: `/api/alpha-names/default/${id}`, token: other.token })).statusCode,
    ).toBe(404);
    expect(await list(other.token)).toEqual([]);
    expect((await list(owner.token)).find((n: { id: number }) => n.id === id)).toEqual(names[0]);

    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await list(operator.token)).length).toBe(names.length);
    expect((await store(operator.token, 'OpName')).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: `/api/alpha-names/default/${id}`, token: operator.token })).statusCode,
    ).toBe(403);
  });

  it('tells the team who reviews and how long it usually takes, and mails owner and admins the decision in the language asked in', async () => {
    const team = await signupVerified(t);
    const teamAdmin = await addMember(t, team.token, 'team_admin');
    const names = await t.request({ method: 'GET', url: '/api/alpha-names', token: team.token });
    expect(names.json().review).toEqual({ by: 'admins', seconds: 86_400 });
    const ask = (name: string, lang: string) =>
      t.request({
        method: 'POST',
        url: '/api/alpha-names/store',
        token: team.token,
        payload: { name },
        headers: { 'accept-language': lang },
      });
    const approved = (await ask('Kvity', 'uk')).json().data.id;
    const rejected = (await ask('Cvety', 'ru')).json().data.id;
    await review(admin.token, approved, 'approve');
    await review(admin.token, rejected, 'reject');
    const decisions = (email: string) =>
      t.mails().filter((m) => m.to.includes(email) && /Альфа-(ім’я|имя)/.test(m.subject));
    await waitUntil('both decisions mailed', () => decisions(teamAdmin.email).length === 2, 20_000);
    await waitUntil('both decisions mailed', () => decisions(team.email).length === 2, 20_000);
    const teamName = (
      await sql<{ name: string }>`select name from teams where id = ${team.user.team_id}`.execute(
        t.app.services.database.db,
      )
    ).rows[0]?.name;
    const toOwner = decisions(team.email).sort((a, b) => a.subject.localeCompare(b.subject));
    expect(toOwner.map((m) => m.subject)).toEqual(['Альфа-имя Cvety отклонено', 'Альфа-ім’я Kvity схвалено']);
    expect(toOwner[1]?.text).toContain(`Альфа-ім’я Kvity команди ${teamName} схвалено`);
    expect(toOwner[0]?.text).toContain('не одобрено');
    expect(decisions(admin.email)).toEqual([]);
  });

  it('opens the review only to the installation admins', async () => {
    const id = (await store((await signupVerified(t)).token, 'Waiting')).json().data.id;
    expect((await t.request({ method: 'GET', url: '/api/admin/alpha-names', token: owner.token })).statusCode).toBe(
      403,
    );
    expect((await review(owner.token, id, 'approve')).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/admin/alpha-names' })).statusCode).toBe(401);
  });
});

describe.each(databases)('alpha names approved by themselves on %s (simulator installations)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // The shipped catalogue, whose Trial gives one alpha name.
    t = await startTestApp(kind, { HERALD_ALPHA_AUTO_APPROVE_SECONDS: '1', HERALD_PLANS_FILE: '' });
  });
  afterAll(() => t?.close());

  it('approves a new name after the delay, and makes it the default', async () => {
    const owner = await signupVerified(t);
    const created = await t.request({
      method: 'POST',
      url: '/api/alpha-names/store',
      token: owner.token,
      payload: { name: 'SimSender' },
    });
    expect(created.json().data.status).toBe(2);
    const read = async () =>
      (await t.request({ method: 'GET', url: '/api/alpha-names', token: owner.token })).json().data[0];
    await waitUntil('the name approved by itself', async () => (await read()).status === 1, 30_000);
    expect(await read()).toMatchObject({ name: 'SimSender', active: true, default: true });
    // The shipped Trial gives one alpha name.
    const second = await t.request({
      method: 'POST',
      url: '/api/alpha-names/store',
      token: owner.token,
      payload: { name: 'Another' },
    });
    expect(second.json()).toMatchObject({ status: 'limit', code: 'alpha_names_limit_reached' });
  });
});

describe.each(databases)('alpha names of a team that sends only through the simulator on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { HERALD_SIMULATOR_REVIEW_SECONDS: '1' });
  });
  afterAll(() => t?.close());

  const store = async (token: string, name: string) =>
    (await t.request({ method: 'POST', url: '/api/alpha-names/store', token, payload: { name } })).json().data;
  const statusOf = async (token: string, id: number) =>
    (await t.request({ method: 'GET', url: '/api/alpha-names', token }))
      .json()
      .data.find((n: { id: number }) => n.id === id)?.status;

  it('are approved by themselves after the simulator’s review; a team with a real gateway waits for an admin', async () => {
    const simulated = await signupVerified(t);
    const real = await signupVerified(t);
    const none = await signupVerified(t);
    await createGateway(t, simulated.token, { type: 'simulator', name: 'Simulator', default: true });
    await createGateway(t, real.token, { type: 'simulator', name: 'Simulator', default: true });
    await createGateway(t, real.token, {
      type: 'twilio',
      name: 'Twilio',
      credentials: { sid: `AC${'1'.repeat(32)}`, token: 'secret', from_twilio: '+15005550006' },
    });
    const [a, b, c] = [
      await store(simulated.token, 'SimOnly'),
      await store(real.token, 'RealToo'),
      await store(none.token, 'NoGateway'),
    ];
    expect([a.status, b.status, c.status]).toEqual([2, 2, 2]);
    await waitUntil(
      'the simulator team’s name approved',
      async () => (await statusOf(simulated.token, a.id)) === 1,
      30_000,
    );
    // Well past the simulator's delay, the others are still on review.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await statusOf(real.token, b.id)).toBe(2);
    expect(await statusOf(none.token, c.id)).toBe(2);
  });
});
