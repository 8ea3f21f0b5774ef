import { describe, expect, it } from 'vitest';
import { gatewaySenderOf, senderAfterGateway, sendersFor } from './campaign-senders.ts';

const numbered = { value: '1', label: 'One', from: '+380 50 111 00 01' };
const named = { value: '2', label: 'Two', from: 'ShopTwo' };
const bare = { value: '3', label: 'Three', from: null };

describe('the senders a campaign may use through a gateway (decision 035)', () => {
  it("keeps a gateway's number in E.164, as the server does, and a name as written", () => {
    expect(gatewaySenderOf(numbered)).toBe('+380501110001');
    expect(gatewaySenderOf(named)).toBe('ShopTwo');
    expect(gatewaySenderOf(bare)).toBeNull();
    expect(gatewaySenderOf(undefined)).toBeNull();
  });

  it("offers the alpha names, then the gateway's own sender once", () => {
    const names = [
      { name: 'ShopTwo', default: false },
      { name: 'Herald', default: false },
    ];
    expect(sendersFor(named, names)).toEqual(['ShopTwo', 'Herald']);
    expect(sendersFor(numbered, names)).toEqual(['ShopTwo', 'Herald', '+380501110001']);
    expect(sendersFor(bare, [])).toEqual([]);
  });

  it('keeps a sender the new gateway allows, else the default name, else the only sender, else none', () => {
    expect(senderAfterGateway('+380501110001', named, [])).toBe('ShopTwo');
    expect(senderAfterGateway('ShopTwo', numbered, [])).toBe('+380501110001');
    expect(senderAfterGateway('Herald', numbered, [{ name: 'Herald', default: false }])).toBe('Herald');
    expect(senderAfterGateway('+380501110001', named, [{ name: 'Brand', default: true }])).toBe('Brand');
    expect(
      senderAfterGateway('+380501110001', bare, [
        { name: 'A', default: false },
        { name: 'B', default: false },
      ]),
    ).toBe('');
    expect(senderAfterGateway('', bare, [])).toBe('');
  });
});
