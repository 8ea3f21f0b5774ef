import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// Serving files does not touch the database: the embedded one is enough.
describe('the built web app', () => {
  let t: TestApp;
  const dist = mkdtempSync(join(tmpdir(), 'herald-dist-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), script);
    // What apps/web/vite.config.ts writes at build time.
    writeFileSync(join(dist, 'assets', 'app-1a2b.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'app-1a2b.js.gz'), gzipSync(script));
    t = await startTestApp('embedded', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the precompressed asset the browser accepts, and the plain file otherwise', async () => {
    const br = await t.request({
      method: 'GET',
      url: '/assets/app-1a2b.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.request({ method: 'GET', url: '/assets/app-1a2b.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBeLessThan(script.length / 10);

    const plain = await t.request({ method: 'GET', url: '/assets/app-1a2b.js', headers: { 'accept-encoding': '' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers app addresses with the page and unknown API routes with JSON', async () => {
    const page = await t.request({ method: 'GET', url: '/audiences/12/leads' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const api = await t.request({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'route_not_found' });
  });
});
