import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signupVerified, uniqueEmail } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('accounts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  const signin = (email: string, password: string, ip = '10.0.0.1') =>
    t.request({ method: 'POST', url: '/api/auth/signin', payload: { email, password }, remoteAddress: ip });

  it('signs up a team owner who stays locked out until the e-mail is verified', async () => {
    const email = uniqueEmail();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'Taras', email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const token = res.json().access_token;
    const denied = await t.request({ method: 'GET', url: '/api/user', token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('email_not_verified');

    const resend = await t.request({ method: 'POST', url: '/api/auth/email/resend', token, payload: {} });
    expect(resend.statusCode).toBe(200);
    await t.waitForMail(email, 2);
    const links = t.mails().filter((m) => m.to.includes(email));
    expect(links).toHaveLength(2);
    // The first link was voided by the second, and says so.
    const firstToken = new URL((links[0].text.match(/https?:\/\/\S+/) as RegExpMatchArray)[0]).searchParams.get(
      'token',
    );
    const voided = await t.request({ method: 'POST', url: '/api/auth/email/verify', payload: { token: firstToken } });
    expect(voided.statusCode).toBe(422);
    expect(voided.json().errors.token).toEqual([{ code: 'link_superseded' }]);
    const secondToken = new URL(t.lastMailTo(email).links[0]).searchParams.get('token');
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/email/verify', payload: { token: secondToken } })).statusCode,
    ).toBe(200);
    // Single use; once verified, the voided link is merely invalid.
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/email/verify', payload: { token: secondToken } })).statusCode,
    ).toBe(422);
    const late = await t.request({ method: 'POST', url: '/api/auth/email/verify', payload: { token: firstToken } });
    expect(late.json().errors.token).toEqual([{ code: 'link_invalid' }]);

    const user = await t.request({ method: 'GET', url: '/api/user', token });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({
      name: 'Taras',
      email,
      role: 'team_owner',
      permissions: expect.arrayContaining(['team:manage']),
    });
  });

  it('rejects a taken e-mail and weak passwords with the spec messages', async () => {
    const { email } = await signupVerified(t);
    const taken = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'X', email: email.toUpperCase(), password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toBeDefined();
    const weak = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: ' ', email: uniqueEmail(), password: 'abcdefgh', password_confirmation: 'abcdefgX' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.name).toEqual([{ code: 'full_name_required' }]);
    expect(weak.json().errors.password).toEqual(expect.arrayContaining([{ code: 'password_needs_number' }]));
    expect(weak.json().errors.password_confirmation).toEqual([{ code: 'passwords_must_match' }]);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const { email } = await signupVerified(t);
    const wrong = await signin(email, 'Wrong-pass1', '10.0.1.1');
    const unknown = await signin(uniqueEmail('ghost'), 'Wrong-pass1', '10.0.1.2');
    expect(wrong.statusCode).toBe(unknown.statusCode);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json().message).toBe('Incorrect password or user not found.');
    const ok = await signin(email, PASSWORD, '10.0.1.3');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().access_token).toEqual(expect.any(String));
  });

  it('throttles sign-in per account before checking the password', async () => {
    const { email } = await signupVerified(t);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signin(email, 'Wrong-pass1', `10.2.0.${i}`)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Even the right password waits for the window now.
    expect((await signin(email, PASSWORD, '10.2.1.1')).statusCode).toBe(429);
  });

  it('revokes the token on log out', async () => {
    const { email } = await signupVerified(t);
    const token = (await signin(email, PASSWORD, '10.3.0.1')).json().access_token;
    expect((await t.request({ method: 'GET', url: '/api/user', token })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/user', token });
    expect(after.statusCode).toBe(401);
  });

  it('resets a password with link and code, then ends every session', async () => {
    const { email, token: oldToken } = await signupVerified(t);
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/password/email',
      payload: { email: uniqueEmail('nobody') },
    });
    const known = await t.request({ method: 'POST', url: '/api/auth/password/email', payload: { email } });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);

    const mail = await t.waitForMail(email, 2); // after the verification mail of the sign-up
    const resetToken = new URL(mail.links.find((l) => l.includes('/reset-password')) as string).searchParams.get(
      'token',
    ) as string;
    const code = (mail.text.match(/\b(\d{6})\b/) as RegExpMatchArray)[1];
    const wrongCode = code === '000000' ? '111111' : '000000';
    const bad = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code: wrongCode },
    });
    expect(bad.statusCode).toBe(422);
    const step1 = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code },
    });
    // The right code proves the mailbox: step two starts with its address filled in.
    expect(step1.json()).toEqual({ is_completed: false, email });
    const newPassword = 'Another-pass2';
    const step2 = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code, email, password: newPassword, password_confirmation: newPassword },
    });
    expect(step2.json()).toEqual({ is_completed: true });
    expect((await t.request({ method: 'GET', url: '/api/user', token: oldToken })).statusCode).toBe(401);
    expect((await signin(email, PASSWORD, '10.4.0.1')).statusCode).toBe(422);
    expect((await signin(email, newPassword, '10.4.0.2')).statusCode).toBe(200);
    // The link is single use.
    const reused = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code },
    });
    expect(reused.statusCode).toBe(422);
  });

  it('voids a reset link after five wrong codes', async () => {
    const { email } = await signupVerified(t);
    await t.request({ method: 'POST', url: '/api/auth/password/email', payload: { email } });
    const mail = await t.waitForMail(email, 2); // after the verification mail of the sign-up
    const resetToken = new URL(mail.links[0]).searchParams.get('token') as string;
    const code = (mail.text.match(/\b(\d{6})\b/) as RegExpMatchArray)[1];
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await t.request({
        method: 'POST',
        url: '/api/auth/password/reset',
        payload: { token: resetToken, code: wrongCode },
        remoteAddress: `10.5.0.${i}`,
      });
    }
    const right = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code },
      remoteAddress: '10.5.1.1',
    });
    expect(right.statusCode).toBe(422);
    expect(right.json().errors.token).toBeDefined();
  });

  it('rejects an expired reset code', async () => {
    const { email } = await signupVerified(t);
    await t.request({ method: 'POST', url: '/api/auth/password/email', payload: { email } });
    const mail = await t.waitForMail(email, 2); // after the verification mail of the sign-up
    const resetToken = new URL(mail.links[0]).searchParams.get('token') as string;
    const code = (mail.text.match(/\b(\d{6})\b/) as RegExpMatchArray)[1];
    await t.app.services.database.db
      .updateTable('auth_tokens')
      .set({ code_expires_at: new Date(Date.now() - 1000) })
      .where('kind', '=', 'password_reset')
      .execute();
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token: resetToken, code },
      remoteAddress: '10.6.0.1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.code).toBeDefined();
  });

  it('changes the password with the spec rules, returning a new token and ending other sessions', async () => {
    const { email, token: first } = await signupVerified(t);
    const second = (await signin(email, PASSWORD, '10.7.0.1')).json().access_token;
    const same = await t.request({
      method: 'POST',
      url: '/api/auth/password/change',
      token: second,
      payload: { current_password: PASSWORD, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors.password).toEqual([{ code: 'current_password_error' }]);
    const wrongCurrent = await t.request({
      method: 'POST',
      url: '/api/auth/password/change',
      token: second,
      payload: { current_password: 'Nope-nope1', password: 'Brand-new1', password_confirmation: 'Brand-new1' },
    });
    expect(wrongCurrent.statusCode).toBe(422);
    expect(wrongCurrent.json().errors.current_password).toEqual([{ code: 'current_password_incorrect' }]);
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password/change',
      token: second,
      payload: { current_password: PASSWORD, password: 'Brand-new1', password_confirmation: 'Brand-new1' },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().access_token;
    expect((await t.request({ method: 'GET', url: '/api/user', token: first })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/user', token: second })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/user', token: fresh })).statusCode).toBe(200);
  });

  it('edits the profile: name required, phone gets a leading +, e-mail stays', async () => {
    const { token, user, email } = await signupVerified(t);
    const empty = await t.request({
      method: 'PUT',
      url: `/api/user/${user.id}`,
      token,
      payload: { name: ' ', phone: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual([{ code: 'username_required' }]);
    const ok = await t.request({
      method: 'PUT',
      url: `/api/user/${user.id}`,
      token,
      payload: { name: 'Olena K', phone: '380 50 123 45 67', email: 'hacker@example.com' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Olena K', phone: '+380501234567', email });
  });

  it('rejects a forged or expired token', async () => {
    const { token } = await signupVerified(t);
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    expect((await t.request({ method: 'GET', url: '/api/user', token: forged })).statusCode).toBe(401);
    const signer = t.app.services.tokens;
    const { token: otherSession } = await signer.sign(1, 'no-such-session');
    expect((await t.request({ method: 'GET', url: '/api/user', token: otherSession })).statusCode).toBe(401);
  });
});
