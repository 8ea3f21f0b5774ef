import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * LiqPay's hosted checkout, as its documentation describes it
 * (https://www.liqpay.ua/documentation/en/data_signature): `data` is base64 of the JSON
 * parameters, `signature` is base64 of the binary SHA-1 of `private_key + data + private_key`.
 * The same pair comes back on the server callback, signed the same way.
 */
export function signData(privateKey: string, data: string): string {
  return createHash('sha1')
    .update(privateKey + data + privateKey)
    .digest('base64');
}

export function encodeData(params: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
}

/** Recomputed over the received `data` string, compared in constant time, before anything is decoded. */
export function verifySignature(privateKey: string, data: string, signature: string): boolean {
  const expected = Buffer.from(signData(privateKey, data), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The JSON object inside `data`, or null when it is not base64 of a JSON object. */
export function decodeData(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The checkout form's fields for `params`: what the browser POSTs to the checkout URL. */
export function checkoutForm(privateKey: string, params: Record<string, unknown>) {
  const data = encodeData(params);
  return { data, signature: signData(privateKey, data) };
}

/** Final statuses that mean paid; `sandbox` counts only where sandbox payments are accepted. */
export function isPaid(status: unknown, sandbox: boolean): boolean {
  return status === 'success' || (sandbox && status === 'sandbox');
}

/** Final statuses that mean the payment will not come (LiqPay: failure, error). */
export function isDeclined(status: unknown): boolean {
  return status === 'failure' || status === 'error';
}

/** LiqPay's `reversed`: a payment taken back (a refund or a chargeback), after or instead of a success. */
export function isReversed(status: unknown): boolean {
  return status === 'reversed';
}
