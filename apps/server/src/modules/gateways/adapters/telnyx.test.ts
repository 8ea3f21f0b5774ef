import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AdapterContext } from './gateway-adapter.ts';
import { createTelnyxAdapter, isTelnyxPublicKey, mapTelnyxStatus, verifyTelnyxSignature } from './telnyx.ts';

// A key pair like the account's: Telnyx signs with the private half; the gateway holds the public.
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const publicRaw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
const signAsTelnyx = (timestamp: string, body: string) =>
  sign(null, Buffer.from(`${timestamp}|${body}`), privateKey).toString('base64');

const NOW = 1_800_000_000_000;
const ctx: AdapterContext = {
  gatewayId: 1,
  params: { public_key: publicRaw, messaging_profile_id: 'prof-1' },
  credentials: { api_key: 'KEY', webhook_secret: 's' },
  baseUrl: 'http://127.0.0.1:9',
  statusUrl: 'https://h/api/webhooks/gateways/1/status',
  inboundUrl: 'https://h/api/webhooks/gateways/1/inbound',
  timeoutMs: 1000,
  now: () => NOW,
};

const finalized = (profile = 'prof-1') =>
  JSON.stringify({
    data: {
      event_type: 'message.finalized',
      id: 'evt-1',
      occurred_at: '2027-01-15T08:00:00.000Z',
      payload: {
        id: 'msg-1',
        messaging_profile_id: profile,
        to: [{ phone_number: '+380501234567', status: 'delivered' }],
      },
    },
    meta: { attempt: 1 },
  });

describe('Telnyx Ed25519 webhook signature', () => {
  it('accepts what the private key signed, over timestamp|body', () => {
    const ts = String(NOW / 1000);
    const body = finalized();
    expect(verifyTelnyxSignature(publicRaw, ts, body, signAsTelnyx(ts, body))).toBe(true);
    expect(verifyTelnyxSignature(publicRaw, ts, `${body} `, signAsTelnyx(ts, body))).toBe(false);
    expect(verifyTelnyxSignature(publicRaw, String(NOW / 1000 + 1), body, signAsTelnyx(ts, body))).toBe(false);
  });

  it('refuses a stale timestamp, another profile and a wrong key; parses a fresh one', () => {
    const adapter = createTelnyxAdapter(ctx);
    const req = (ts: number, body = finalized()) => ({
      url: ctx.statusUrl,
      rawBody: body,
      headers: { 'telnyx-timestamp': String(ts), 'telnyx-signature-ed25519': signAsTelnyx(String(ts), body) },
    });
    const fresh = req(NOW / 1000 - 10);
    expect(adapter.verifyWebhook(fresh, 'status')).toEqual({ ok: true });
    expect(adapter.verifyWebhook(req(NOW / 1000 - 301), 'status')).toEqual({ ok: false, reason: 'stale' });
    expect(adapter.verifyWebhook(req(NOW / 1000, finalized('prof-2')), 'status')).toEqual({
      ok: false,
      reason: 'account',
    });
    const otherKey = generateKeyPairSync('ed25519').privateKey;
    const ts = String(NOW / 1000);
    const forged = {
      ...fresh,
      headers: {
        'telnyx-timestamp': ts,
        'telnyx-signature-ed25519': sign(null, Buffer.from(`${ts}|${fresh.rawBody}`), otherKey).toString('base64'),
      },
    };
    expect(adapter.verifyWebhook(forged, 'status')).toEqual({ ok: false, reason: 'signature' });
    expect(adapter.parseStatusWebhook(fresh)).toEqual([
      {
        providerMessageId: 'msg-1',
        status: 'delivered',
        providerStatus: 'delivered',
        errorCode: null,
        at: new Date('2027-01-15T08:00:00.000Z'),
      },
    ]);
  });
});

describe('Telnyx status mapping', () => {
  it.each([
    ['queued', null, 'queued'],
    ['sending', null, 'sending'],
    ['sent', null, 'sent'],
    ['delivery_unconfirmed', null, 'sent'],
    ['delivered', null, 'delivered'],
    ['expired', null, 'undelivered'],
    ['delivery_failed', null, 'undelivered'],
    ['delivery_failed', '40003', 'blocked_by_carrier'],
    ['delivery_failed', '40006', 'inactive_device'],
    ['sending_failed', null, 'failed'],
    ['sending_failed', '40300', 'blocked_by_carrier'],
    ['bogus', null, null],
  ])('%s (%s) → %s', (status, code, expected) => {
    expect(mapTelnyxStatus(status, code)).toBe(expected);
  });
});

describe('isTelnyxPublicKey', () => {
  it('takes the base64 of a 32-byte Ed25519 key, with spaces around', () => {
    expect(isTelnyxPublicKey(publicRaw)).toBe(true);
    expect(isTelnyxPublicKey(` ${publicRaw}\n`)).toBe(true);
  });
  it('refuses what cannot verify a signature', () => {
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const text of ['', 'not a key', Buffer.alloc(16).toString('base64'), Buffer.alloc(64).toString('base64'), pem])
      expect(isTelnyxPublicKey(text), text).toBe(false);
  });
});
