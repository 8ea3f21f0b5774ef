import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, addMember, signupVerified, uniqueEmail } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('team and invitations on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('invites a colleague who registers into the team with the invited role', async () => {
    const owner = await signupVerified(t);
    const email = uniqueEmail('op');
    const created = await t.request({
      method: 'POST',
      url: '/api/invitations',
      token: owner.token,
      payload: { email, role: 'team_admin' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const edited = await t.request({
      method: 'PUT',
      url: `/api/invitations/${id}`,
      token: owner.token,
      payload: { role: 'team_operator', email: 'x@y.z' },
    });
    expect(edited.json()).toMatchObject({ email, role: 'team_operator' });
    const list = await t.request({ method: 'GET', url: '/api/invitations', token: owner.token });
    expect(list.json().data.map((i: { email: string }) => i.email)).toEqual([email]);

    const firstLink = t.lastMailTo(email).links[0];
    expect(
      (await t.request({ method: 'POST', url: `/api/invitations/${id}/resend`, token: owner.token })).statusCode,
    ).toBe(200);
    const link = t.lastMailTo(email).links[0];
    expect(link).not.toBe(firstLink);
    const oldToken = firstLink.split('/invite/')[1];
    expect((await t.request({ method: 'GET', url: `/api/auth/invite/${oldToken}` })).statusCode).toBe(404);
    const inviteToken = link.split('/invite/')[1];
    expect((await t.request({ method: 'GET', url: `/api/auth/invite/${inviteToken}` })).json()).toEqual({ email });

    const registered = await t.request({
      method: 'POST',
      url: '/api/auth/invite/register',
      payload: {
        name: 'Operator Oksana',
        email,
        password: PASSWORD,
        password_confirmation: PASSWORD,
        token: inviteToken,
      },
    });
    expect(registered.statusCode).toBe(201);
    const me = await t.request({ method: 'GET', url: '/api/user', token: registered.json().access_token });
    expect(me.json()).toMatchObject({
      role: 'team_operator',
      team_id: owner.user.team_id,
      permissions: expect.not.arrayContaining(['team:manage']),
    });

    // Used: the link no longer works, and the invitation left the pending list.
    const reused = await t.request({
      method: 'POST',
      url: '/api/auth/invite/register',
      payload: { name: 'Again', email, password: PASSWORD, password_confirmation: PASSWORD, token: inviteToken },
    });
    expect(reused.statusCode).toBe(422);
    expect((await t.request({ method: 'GET', url: '/api/invitations', token: owner.token })).json().data).toHaveLength(
      0,
    );
    const team = await t.request({ method: 'GET', url: '/api/team', token: owner.token });
    expect(team.json().data).toHaveLength(2);
  });

  it('refuses expired and unknown invitation tokens and duplicate invitations', async () => {
    const owner = await signupVerified(t);
    const email = uniqueEmail('late');
    await t.request({
      method: 'POST',
      url: '/api/invitations',
      token: owner.token,
      payload: { email, role: 'team_admin' },
    });
    const dup = await t.request({
      method: 'POST',
      url: '/api/invitations',
      token: owner.token,
      payload: { email, role: 'team_admin' },
    });
    expect(dup.statusCode).toBe(422);
    const taken = await t.request({
      method: 'POST',
      url: '/api/invitations',
      token: owner.token,
      payload: { email: owner.email, role: 'team_admin' },
    });
    expect(taken.statusCode).toBe(422);
    const inviteToken = t.lastMailTo(email).links[0].split('/invite/')[1];
    await t.app.services.database.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', email)
      .execute();
    expect((await t.request({ method: 'GET', url: `/api/auth/invite/${inviteToken}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/auth/invite/unknown-token' })).statusCode).toBe(404);
    const late = await t.request({
      method: 'POST',
      url: '/api/auth/invite/register',
      payload: { name: 'Late', email, password: PASSWORD, password_confirmation: PASSWORD, token: inviteToken },
    });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.token).toBeDefined();
  });

  it('enforces each role on each team endpoint', async () => {
    const owner = await signupVerified(t);
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    const invite = (token: string) =>
      t.request({
        method: 'POST',
        url: '/api/invitations',
        token,
        payload: { email: uniqueEmail('x'), role: 'team_operator' },
      });
    const calls = {
      'GET /api/team': (token: string) => t.request({ method: 'GET', url: '/api/team', token }),
      'GET /api/invitations': (token: string) => t.request({ method: 'GET', url: '/api/invitations', token }),
      'POST /api/invitations': invite,
      'GET /api/user': (token: string) => t.request({ method: 'GET', url: '/api/user', token }),
    };
    for (const [name, call] of Object.entries(calls)) {
      expect([name, (await call(owner.token)).statusCode]).toEqual([name, expect.any(Number)]);
      expect([name, (await call(owner.token)).statusCode < 300]).toEqual([name, true]);
      expect([name, (await call(admin.token)).statusCode < 300]).toEqual([name, true]);
      const asOperator = (await call(operator.token)).statusCode;
      expect([name, asOperator]).toEqual([name, name === 'GET /api/user' ? 200 : 403]);
    }
    const block = (token: string, id: number, blocked: boolean) =>
      t.request({ method: 'POST', url: `/api/user/${id}/block`, token, payload: { blocked } });
    expect((await block(operator.token, admin.user.id, true)).statusCode).toBe(403);
    expect((await block(admin.token, owner.user.id, true)).statusCode).toBe(422);
    expect((await block(admin.token, admin.user.id, true)).statusCode).toBe(422);

    // Blocking ends the member's sessions at once and keeps them out; unblocking lets them back.
    expect((await block(admin.token, operator.user.id, true)).json()).toEqual({ id: operator.user.id, blocked: true });
    const afterBlock = await t.request({ method: 'GET', url: '/api/user', token: operator.token });
    expect(afterBlock.statusCode).toBe(403);
    expect(afterBlock.json().code).toBe('account_blocked');
    const signin = await t.request({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: operator.email, password: PASSWORD },
    });
    expect(signin.statusCode).toBe(403);
    expect(signin.json().code).toBe('account_blocked');
    const members = (await t.request({ method: 'GET', url: '/api/team', token: owner.token })).json().data;
    expect(members.find((m: { id: number }) => m.id === operator.user.id).blocked).toBe(true);
    expect((await block(owner.token, operator.user.id, false)).statusCode).toBe(200);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { email: operator.email, password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('applies a role change on the next request', async () => {
    const owner = await signupVerified(t);
    const admin = await addMember(t, owner.token, 'team_admin');
    expect((await t.request({ method: 'GET', url: '/api/team', token: admin.token })).statusCode).toBe(200);
    await t.app.services.database.db
      .updateTable('users')
      .set({ role: 'team_operator' })
      .where('id', '=', admin.user.id)
      .execute();
    expect((await t.request({ method: 'GET', url: '/api/team', token: admin.token })).statusCode).toBe(403);
  });

  it('removes an invitation', async () => {
    const owner = await signupVerified(t);
    const email = uniqueEmail('gone');
    const { id } = (
      await t.request({
        method: 'POST',
        url: '/api/invitations',
        token: owner.token,
        payload: { email, role: 'team_admin' },
      })
    ).json();
    const inviteToken = t.lastMailTo(email).links[0].split('/invite/')[1];
    expect((await t.request({ method: 'DELETE', url: `/api/invitations/${id}`, token: owner.token })).statusCode).toBe(
      200,
    );
    expect((await t.request({ method: 'DELETE', url: `/api/invitations/${id}`, token: owner.token })).statusCode).toBe(
      404,
    );
    expect((await t.request({ method: 'GET', url: `/api/auth/invite/${inviteToken}` })).statusCode).toBe(404);
  });
});
