import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The web opens the hosted checkout with a form POST from the app's own page, so the page's
 * Content-Security-Policy must let forms post there; without LiqPay keys they post only to the app
 * (its sandbox checkout).
 */
describe('forms may post to the payment checkout', () => {
  let withKeys: TestApp;
  let sandbox: TestApp;
  beforeAll(async () => {
    withKeys = await startTestApp('embedded', { LIQPAY_PUBLIC_KEY: 'i00000000', LIQPAY_PRIVATE_KEY: 'secret-key' });
    sandbox = await startTestApp('embedded');
  });
  afterAll(async () => {
    await withKeys?.close();
    await sandbox?.close();
  });

  const formAction = async (t: TestApp) => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    return String(res.headers['content-security-policy']).match(/form-action ([^;]*)/)?.[1];
  };

  it("adds LiqPay's checkout origin when its keys are set, and nothing else", async () => {
    expect(await formAction(withKeys)).toBe("'self' https://www.liqpay.ua");
    expect(await formAction(sandbox)).toBe("'self'");
  });
});
