import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/** The field message of a text that cannot be stored, as every refusal carries it. */
const UNSTORABLE = { code: 'text_unstorable' };

describe.each(databases)('hostile input, operator limits and headers on %s', (kind) => {
  let t: TestApp;
  const dist = mkdtempSync(join(tmpdir(), 'herald-dist-'));

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await startTestApp(kind, { WEB_DIST: dist, TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** A JSON body as sent on the wire, so `\u0000` and a lone `\ud800` arrive as JSON escapes. */
  const raw = (method: 'POST' | 'PUT', url: string, token: string, json: string) =>
    t.request({ method, url, token, headers: { 'content-type': 'application/json' }, payload: json });

  it('refuses a NUL or a lone surrogate in a source name with a 422 naming the field, and stores nothing', async () => {
    const { token } = await signupVerified(t);
    for (const name of ['a\\u0000b', 'a\\ud800b', 'b\\udc00']) {
      const res = await raw('POST', '/api/sources', token, `{"name":"${name}"}`);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { name: [UNSTORABLE] } });
    }
    expect((await t.request({ method: 'GET', url: '/api/sources', token })).json().meta.total).toBe(0);
    // A whole pair (an emoji) is text like any other.
    expect((await raw('POST', '/api/sources', token, '{"name":"Expo \\ud83d\\ude00"}')).statusCode).toBe(201);
  });

  it('refuses them in lead values, on create and on edit, and in a search', async () => {
    const { token } = await signupVerified(t);
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    const city = (
      await t.request({
        method: 'POST',
        url: '/api/lead-attributes',
        token,
        payload: [{ name: 'City', sort_order: 2 }],
      })
    )
      .json()
      .data.find((a: { name: string }) => a.name === 'City').id;
    const body = (value: string) =>
      `{"source_id":${source.id},"list_id":${list.id},"attributes":[{"attr_id":${ids.phone},"value":"+380501234567"},{"attr_id":${city},"value":"${value}"}]}`;
    for (const value of ['Kyiv\\u0000', '\\ud800Kyiv']) {
      const res = await raw('POST', '/api/leads', token, body(value));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ 'attributes.1.value': [UNSTORABLE] });
    }
    expect((await t.request({ method: 'GET', url: '/api/leads', token })).json().meta.total).toBe(0);

    const lead = await raw('POST', '/api/leads', token, body('Kyiv'));
    expect(lead.statusCode).toBe(201);
    const value = lead.json().lead_values.find((v: { attribute: { id: number } }) => v.attribute.id === city);
    const edit = await raw('PUT', `/api/lead-values/${value.id}`, token, '{"value":"Lviv\\udfff"}');
    expect(edit.statusCode, edit.body).toBe(422);
    expect(edit.json().errors).toEqual({ value: [UNSTORABLE] });
    const added = await raw(
      'POST',
      `/api/leads/${lead.json().id}/lead-attributes/${city}/lead-values`,
      token,
      '{"value":"\\u0000"}',
    );
    expect(added.statusCode).toBe(422);
    const after = (await t.request({ method: 'GET', url: `/api/leads/${lead.json().id}`, token })).json();
    expect(after.lead_values.map((v: { value: string }) => v.value).sort()).toEqual(['+380501234567', 'Kyiv']);

    const search = await t.request({ method: 'GET', url: '/api/leads?search=a%00b', token });
    expect(search.statusCode).toBe(422);
    expect(search.json().errors).toEqual({ search: [UNSTORABLE] });
  });

  it('lets operators add leads and values but not delete a lead’s values', async () => {
    const owner = await signupVerified(t);
    const operator = await addMember(t, owner.token, 'team_operator');
    const ids = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token);
    const created = await createLead(t, operator.token, source.id, list.id, [
      [ids.phone, '+380631234567'],
      [ids.email, 'lead@example.com'],
    ]);
    expect(created.statusCode).toBe(201);
    const lead = created.json();
    const email = lead.lead_values.find((v: { attribute: { id: number } }) => v.attribute.id === ids.email);

    const refused = await t.request({ method: 'DELETE', url: `/api/lead-emails/${email.id}`, token: operator.token });
    expect(refused.statusCode).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: `/api/leads/${lead.id}`, token: owner.token })).json().lead_values,
    ).toHaveLength(2);
    const edited = await t.request({
      method: 'PUT',
      url: `/api/lead-emails/${email.id}`,
      token: operator.token,
      payload: { value: 'other@example.com' },
    });
    expect(edited.statusCode).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/lead-emails/${email.id}`, token: owner.token })).statusCode,
    ).toBe(200);
  });

  it('sends HSTS only over https, denies framing, and answers a missing script with 404', async () => {
    const plain = await t.request({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers['x-frame-options']).toBe('DENY');
    expect(String(plain.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    const https = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toContain('max-age=');

    const script = await t.request({ method: 'GET', url: '/assets/index-0000.js' });
    expect(script.statusCode).toBe(404);
    expect(script.body).not.toContain('<div id="root">');
    expect((await t.request({ method: 'GET', url: '/assets/missing.css' })).statusCode).toBe(404);
    const page = await t.request({ method: 'GET', url: '/sources/12' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });
});
