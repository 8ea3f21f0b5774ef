import { describe, expect, it } from 'vitest';
import { rowOfCallback } from './gateway-webhooks.ts';

const base = 'https://app.example/api/webhooks/gateways/7/status';

describe('rowOfCallback', () => {
  it("Twilio: the row in the URL is signed, as Twilio's signature covers the whole URL", () => {
    expect(rowOfCallback('twilio', `${base}?m=42`)).toEqual({ id: 42, signed: true });
  });

  it('providers that sign only the body: the row is a hint', () => {
    for (const type of ['telnyx', 'simulator'] as const)
      expect(rowOfCallback(type, `${base}?m=42`)).toEqual({ id: 42, signed: false });
    expect(rowOfCallback('generic_http', `${base}?token=abc&m=9`)).toEqual({ id: 9, signed: false });
  });

  it("AlphaSMS: the row is the signed key's, whatever `m` says", () => {
    expect(rowOfCallback('alphasms', `${base}?m=1&key=msg-42&token=t`)).toEqual({ id: 42, signed: true });
    expect(rowOfCallback('alphasms', `${base}?m=42&key=k-3&token=t`)).toBeNull();
  });

  it('names no row without a well-formed id', () => {
    for (const query of ['', '?m=', '?m=0', '?m=-1', '?m=1.5', '?m=12abc', `?m=${'9'.repeat(19)}`])
      expect(rowOfCallback('twilio', `${base}${query}`), query).toBeNull();
  });
});
