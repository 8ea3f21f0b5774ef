import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified, uniqueEmail } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

// An invitation names its team, who invites and the role offered, in the inviter's language, so the
// person invited knows what the link is before opening it.
describe.each(databases)('invitation mails on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('name the team, the inviter and the role, in the language asked in; a resend says the same', async () => {
    const owner = await signupVerified(t, uniqueEmail('owner'), 'Olena Kovalenko');
    await sql`update teams set name = 'Квіти Полтави' where id = ${owner.user.team_id}`.execute(
      t.app.services.database.db,
    );
    const invite = (email: string, role: string, lang: string) =>
      t.request({
        method: 'POST',
        url: '/api/invitations',
        token: owner.token,
        payload: { email, role },
        headers: { 'accept-language': lang },
      });
    const admin = uniqueEmail('admin');
    const operator = uniqueEmail('operator');
    expect((await invite(admin, 'team_admin', 'uk')).statusCode).toBe(201);
    const uk = t.lastMailTo(admin);
    expect(uk.subject).toBe('Olena Kovalenko запрошує вас до команди Квіти Полтави в Herald');
    expect(uk.text).toContain('Olena Kovalenko запрошує вас до команди Квіти Полтави в Herald як адміністратора.');
    expect(uk.links.some((l) => l.includes('/invite/'))).toBe(true);

    const created = await invite(operator, 'team_operator', 'en');
    const en = t.lastMailTo(operator);
    expect(en.subject).toBe('Olena Kovalenko invites you to the team Квіти Полтави on Herald');
    expect(en.text).toContain('as an operator');

    const resent = await t.request({
      method: 'POST',
      url: `/api/invitations/${created.json().id}/resend`,
      token: owner.token,
      headers: { 'accept-language': 'ru' },
    });
    expect(resent.statusCode).toBeLessThan(300);
    const ru = t.lastMailTo(operator);
    expect(ru.subject).toBe('Olena Kovalenko приглашает вас в команду Квіти Полтави в Herald');
    expect(ru.text).toContain('как оператора');
    expect(ru.links[0]).not.toBe(en.links[0]);
  });
});
