import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

type Account = Awaited<ReturnType<typeof signupVerified>>;

describe.each(databases)('SMS templates on %s', (kind) => {
  let t: TestApp;
  let owner: Account;
  let operator: Account;
  let other: Account;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    operator = await addMember(t, owner.token, 'team_operator');
    other = await signupVerified(t);
  });
  afterAll(() => t?.close());

  const base = '/api/config/template/sms';
  const body = { name: 'Spring sale', type_id: 'promotion', message: 'Hi {{email|there}}, -20%: {{link}}' };
  const list = async (token: string, query = '', lang = 'en') =>
    (await t.request({ method: 'GET', url: `${base}${query}`, token, headers: { 'accept-language': lang } })).json();

  it('lists the default templates, in the reader language, with no owner', async () => {
    const en = await list(owner.token);
    const defaults = en.data.filter((r: { default: boolean }) => r.default);
    expect(defaults.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['Discount with a link', 'Reminder', 'Order ready']),
    );
    const uk = await list(owner.token, '', 'uk');
    expect(uk.data.map((r: { name: string }) => r.name)).toContain('Знижка з посиланням');
    const ru = await list(owner.token, '?search=Напомин', 'ru');
    expect(ru.data).toEqual([expect.objectContaining({ name: 'Напоминание', default: true, type_id: 'reminder' })]);
  });

  it('adds, edits and deletes a template; a default one cannot be changed or deleted', async () => {
    const created = await t.request({ method: 'POST', url: base, token: owner.token, payload: body });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(created.json()).toMatchObject({ ...body, default: false, public: true, params: { redirect_to: null } });

    const edited = await t.request({
      method: 'PUT',
      url: `${base}/${id}`,
      token: owner.token,
      payload: { ...body, name: 'Summer sale', params: { redirect_to: 'https://shop.example/sale' } },
    });
    expect(edited.json()).toMatchObject({ name: 'Summer sale', params: { redirect_to: 'https://shop.example/sale' } });
    expect((await list(owner.token, '?search=Summer')).data.map((r: { id: number }) => r.id)).toEqual([id]);

    const defaultId = (await list(owner.token)).data.find((r: { default: boolean }) => r.default).id;
    const put = await t.request({ method: 'PUT', url: `${base}/${defaultId}`, token: owner.token, payload: body });
    expect(put.statusCode).toBe(403);
    expect(put.json().detail.code).toBe('default_template_locked');
    expect((await t.request({ method: 'DELETE', url: `${base}/${defaultId}`, token: owner.token })).statusCode).toBe(
      403,
    );

    const deleted = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token });
    expect(deleted.json()).toMatchObject({ code: 'template_deleted' });
    expect((await t.request({ method: 'GET', url: `${base}/${id}`, token: owner.token })).statusCode).toBe(404);
  });

  it('refuses a message under 5 characters, an unknown type and a redirect that is not http(s)', async () => {
    const short = await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      payload: { ...body, message: 'Hi  ' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.message[0].code).toBe('template_too_short');
    const type = await t.request({ method: 'POST', url: base, token: owner.token, payload: { ...body, type_id: 'x' } });
    expect(type.statusCode).toBe(422);
    const redirect = await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      payload: { ...body, params: { redirect_to: 'javascript:alert(1)' } },
    });
    expect(redirect.statusCode).toBe(422);
    expect(redirect.json().errors['params.redirect_to'][0].code).toBe('invalid_url_plain');
  });

  it('lets an operator list and load templates but not save, edit or delete them', async () => {
    const id = (await t.request({ method: 'POST', url: base, token: owner.token, payload: body })).json().id;
    expect((await list(operator.token)).data.map((r: { id: number }) => r.id)).toContain(id);
    const loaded = await t.request({ method: 'GET', url: `${base}/${id}`, token: operator.token });
    expect(loaded.json().message).toBe(body.message);
    expect((await t.request({ method: 'POST', url: base, token: operator.token, payload: body })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: `${base}/${id}`, token: operator.token, payload: body })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: operator.token })).statusCode).toBe(403);
  });

  it("hides another team's templates (404, nothing changed) and a colleague's private one", async () => {
    const id = (await t.request({ method: 'POST', url: base, token: owner.token, payload: body })).json().id;
    expect((await t.request({ method: 'GET', url: `${base}/${id}`, token: other.token })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'PUT', url: `${base}/${id}`, token: other.token, payload: { ...body, name: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: other.token })).statusCode).toBe(404);
    expect((await list(other.token)).data.some((r: { id: number }) => r.id === id)).toBe(false);
    expect((await t.request({ method: 'GET', url: `${base}/${id}`, token: owner.token })).json().name).toBe(body.name);

    const admin = await addMember(t, owner.token, 'team_admin');
    const mine = (
      await t.request({ method: 'POST', url: base, token: admin.token, payload: { ...body, public: false } })
    ).json().id;
    expect((await t.request({ method: 'GET', url: `${base}/${mine}`, token: admin.token })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `${base}/${mine}`, token: owner.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${base}/${mine}`, token: owner.token })).statusCode).toBe(404);
  });
});
