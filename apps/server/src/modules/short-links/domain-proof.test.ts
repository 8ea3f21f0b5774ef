import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainProbe, type DomainProbe, proveDomain } from './domain-proof.ts';

const TOKEN = '0123456789abcdef0123456789abcdef';

/** A server standing in for what a domain answers; it records the Host and path it was asked. */
let server: http.Server;
let base = '';
const seen: Array<{ host?: string; url?: string }> = [];
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ host: req.headers.host, url: req.url });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const noDns = { resolveTxt: async () => Promise.reject(new Error('queryTxt ENOTFOUND')) };

describe('the HTTP proof', () => {
  it('asks the base address with the domain as Host, at the token path, and accepts the exact text', async () => {
    answer = (_req, res) => res.end(`herald-verify=${TOKEN}\n`);
    const probe = { ...createDomainProbe({ baseUrl: base, timeoutMs: 2_000 }), ...noDns };
    expect(await proveDomain(probe, 'go.shop.example', TOKEN)).toEqual({ proven: true, by: 'http' });
    expect(seen.at(-1)).toEqual({ host: 'go.shop.example', url: `/.well-known/herald/${TOKEN}` });
  });

  it('refuses another token, a page that answers anything, and an error status', async () => {
    const probe = { ...createDomainProbe({ baseUrl: base, timeoutMs: 2_000 }), ...noDns };
    for (const [status, body] of [
      [200, 'herald-verify=ffffffffffffffffffffffffffffffff'],
      [200, `<html>herald-verify=${TOKEN}</html>`],
      [404, `herald-verify=${TOKEN}`],
    ] as const) {
      answer = (_req, res) => {
        res.statusCode = status;
        res.end(body);
      };
      const result = await proveDomain(probe, 'go.shop.example', TOKEN);
      expect(result.proven, body).toBe(false);
    }
  });

  it('reads no more than a KiB of what a server sends', async () => {
    answer = (_req, res) => res.end(`herald-verify=${TOKEN}${' '.repeat(1_000_000)}`);
    const probe = createDomainProbe({ baseUrl: base, timeoutMs: 2_000 });
    const res = await probe.fetchText('go.shop.example', `/.well-known/herald/${TOKEN}`);
    expect(res.body.length).toBeLessThanOrEqual(1024);
  });

  it('gives up on a server that does not answer', async () => {
    answer = () => {};
    const probe = { ...createDomainProbe({ baseUrl: base, timeoutMs: 200 }), ...noDns };
    const result = await proveDomain(probe, 'go.shop.example', TOKEN);
    expect(result).toMatchObject({ proven: false, http: expect.stringContaining('no answer') });
  });
});

describe('the DNS proof', () => {
  const failingHttp = { fetchText: async () => ({ status: 404, body: '' }) };
  it('accepts the record among others, its chunks joined; refuses another token', async () => {
    const probe: DomainProbe = {
      ...failingHttp,
      resolveTxt: async (name) =>
        name === '_herald.go.shop.example' ? [['v=spf1 -all'], ['herald-verify=', TOKEN]] : [],
    };
    expect(await proveDomain(probe, 'go.shop.example', TOKEN)).toEqual({ proven: true, by: 'dns' });
    expect((await proveDomain(probe, 'go.shop.example', 'f'.repeat(32))).proven).toBe(false);
  });

  it('a proof over HTTP does not wait for a resolver that hangs', async () => {
    const probe: DomainProbe = {
      fetchText: async () => ({ status: 200, body: `herald-verify=${TOKEN}` }),
      resolveTxt: () => new Promise(() => {}),
    };
    expect(await proveDomain(probe, 'go.shop.example', TOKEN)).toEqual({ proven: true, by: 'http' });
  });
});
