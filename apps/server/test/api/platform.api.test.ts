import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

describe.each(databases)('platform on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => t?.close());

  it('reports the database and job queue reachable', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok', jobs: 'ok', mode: kind });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('answers a malformed JSON body with 400 and keeps serving', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request' });
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(5000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers schema violations with 422 and field errors', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/signup', payload: { name: '', email: 'nope' } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['name', 'email']));
  });

  it('sets a strict Content-Security-Policy without inline scripts', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('serves the OpenAPI document of every route', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/events', '/api/auth/signin']));
  });

  it('rejects protected routes without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/processes' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
  });
});
