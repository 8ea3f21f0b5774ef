import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import type { AdapterContext } from './gateway-adapter.ts';
import { createTwilioAdapter, mapTwilioStatus, twilioSignature } from './twilio.ts';

// Twilio's documented example (webhooks security page).
const DOCS = {
  token: '12345',
  url: 'https://mycompany.com/myapp.php?foo=1&bar=2',
  params: {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+12349013030',
    Digits: '1234',
    From: '+12349013030',
    To: '+18005551212',
  },
  signature: '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
};

const ctx = (over: Partial<AdapterContext> = {}): AdapterContext => ({
  gatewayId: 1,
  params: { sid: 'AC123', from_twilio: '+15005550006' },
  credentials: { token: 'tok', webhook_secret: 's' },
  baseUrl: 'http://127.0.0.1:9',
  statusUrl: 'https://herald.example/api/webhooks/gateways/1/status',
  inboundUrl: 'https://herald.example/api/webhooks/gateways/1/inbound',
  timeoutMs: 1000,
  now: Date.now,
  ...over,
});

describe('Twilio signature', () => {
  it("reproduces the docs' example vector", () => {
    expect(twilioSignature(DOCS.token, DOCS.url, DOCS.params)).toBe(DOCS.signature);
  });

  it('agrees with the official helper on other input', () => {
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered', AccountSid: 'AC123', Body: 'Привіт & бувай' };
    const url = 'https://herald.example/api/webhooks/gateways/7/status?m=42';
    expect(twilio.validateRequest('tok', twilioSignature('tok', url, params), url, params)).toBe(true);
  });

  it('verifies a signed callback, and refuses a forged one or another account', () => {
    const adapter = createTwilioAdapter(ctx());
    const url = 'https://herald.example/api/webhooks/gateways/1/status';
    const params = { MessageSid: 'SM1', MessageStatus: 'sent', AccountSid: 'AC123' };
    const rawBody = new URLSearchParams(params).toString();
    const signed = {
      url,
      rawBody,
      headers: { 'x-twilio-signature': twilio.getExpectedTwilioSignature('tok', url, params) },
    };
    expect(adapter.verifyWebhook(signed, 'status')).toEqual({ ok: true });
    expect(adapter.verifyWebhook({ ...signed, rawBody: `${rawBody}&Extra=1` }, 'status')).toEqual({
      ok: false,
      reason: 'signature',
    });
    const other = { ...params, AccountSid: 'AC999' };
    const otherBody = new URLSearchParams(other).toString();
    expect(
      adapter.verifyWebhook(
        {
          url,
          rawBody: otherBody,
          headers: { 'x-twilio-signature': twilio.getExpectedTwilioSignature('tok', url, other) },
        },
        'status',
      ),
    ).toEqual({ ok: false, reason: 'account' });
  });
});

describe('Twilio status mapping', () => {
  it.each([
    ['accepted', null, 'queued'],
    ['queued', null, 'queued'],
    ['sending', null, 'sending'],
    ['sent', null, 'sent'],
    ['delivered', null, 'delivered'],
    ['undelivered', null, 'undelivered'],
    ['undelivered', '30003', 'inactive_device'],
    ['undelivered', '30005', 'inactive_device'],
    ['undelivered', '30007', 'blocked_by_carrier'],
    ['failed', '30004', 'blocked_by_carrier'],
    ['failed', '30008', 'failed'],
    ['canceled', null, 'failed'],
    ['receiving', null, null],
  ])('%s (%s) → %s', (status, code, expected) => {
    expect(mapTwilioStatus(status, code)).toBe(expected);
  });
});
