import { describe, expect, it } from 'vitest';
import { checkoutForm, decodeData, encodeData, isPaid, signData, verifySignature } from './liqpay.ts';

// The example of LiqPay's documentation page (https://www.liqpay.ua/documentation/en/data_signature),
// recomputed in the research brief and found verbatim in public client libraries.
const DOC_PRIVATE_KEY = 'a4825234f4bae72a0be04eafe9e8e2bada209255';
const DOC_JSON =
  '{"public_key":"i00000000","version":"3","action":"pay","amount":"3","currency":"UAH","description":"test","order_id":"000001"}';
const DOC_DATA =
  'eyJwdWJsaWNfa2V5IjoiaTAwMDAwMDAwIiwidmVyc2lvbiI6IjMiLCJhY3Rpb24iOiJwYXkiLCJhbW91bnQiOiIzIiwiY3VycmVuY3kiOiJVQUgiLCJkZXNjcmlwdGlvbiI6InRlc3QiLCJvcmRlcl9pZCI6IjAwMDAwMSJ9';
const DOC_SIGNATURE = 'wR+UZDC4jjeL/qUOvIsofIWpZh8=';

describe('LiqPay data and signature', () => {
  it('reproduces the documentation example', () => {
    expect(encodeData(JSON.parse(DOC_JSON))).toBe(DOC_DATA);
    expect(signData(DOC_PRIVATE_KEY, DOC_DATA)).toBe(DOC_SIGNATURE);
    expect(checkoutForm(DOC_PRIVATE_KEY, JSON.parse(DOC_JSON))).toEqual({ data: DOC_DATA, signature: DOC_SIGNATURE });
  });

  it('verifies the documentation example and nothing changed from it', () => {
    expect(verifySignature(DOC_PRIVATE_KEY, DOC_DATA, DOC_SIGNATURE)).toBe(true);
    expect(verifySignature('another-private-key', DOC_DATA, DOC_SIGNATURE)).toBe(false);
    expect(verifySignature(DOC_PRIVATE_KEY, `${DOC_DATA.slice(0, -2)}0=`, DOC_SIGNATURE)).toBe(false);
    expect(verifySignature(DOC_PRIVATE_KEY, DOC_DATA, DOC_SIGNATURE.slice(1))).toBe(false);
    expect(verifySignature(DOC_PRIVATE_KEY, DOC_DATA, '')).toBe(false);
  });

  it('decodes data to its object and refuses what is not one', () => {
    expect(decodeData(DOC_DATA)).toMatchObject({ order_id: '000001', amount: '3' });
    expect(decodeData('not base64 json')).toBeNull();
    expect(decodeData(Buffer.from('[1]').toString('base64'))).toBeNull();
  });

  it('counts sandbox payments as paid only in sandbox mode', () => {
    expect(isPaid('success', false)).toBe(true);
    expect(isPaid('sandbox', false)).toBe(false);
    expect(isPaid('sandbox', true)).toBe(true);
    expect(isPaid('wait_accept', true)).toBe(false);
  });
});
