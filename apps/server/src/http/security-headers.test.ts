import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security-headers.ts';

/** The `form-action` of the page's Content-Security-Policy, with `formTargets` given. */
async function formAction(formTargets?: string[]) {
  const app = Fastify();
  await registerSecurityHeaders(app, formTargets);
  app.get('/', async () => 'page');
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return String(res.headers['content-security-policy']).match(/form-action ([^;]*)/)?.[1];
}

describe('the page may post forms', () => {
  it('to itself only, by default (the sandbox checkout is the app’s own page)', async () => {
    expect(await formAction()).toBe("'self'");
  });

  it('and to the hosted payment checkout it is given, so the top-up form can reach LiqPay', async () => {
    expect(await formAction(['https://www.liqpay.ua'])).toBe("'self' https://www.liqpay.ua");
  });
});
