import { describe, expect, it } from 'vitest';
import { simulateLookup } from './simulator-lookup.ts';

describe("the simulator's carrier database", () => {
  it('answers Ukrainian numbering, the same phone the same way', () => {
    expect(simulateLookup('+380441234567')).toMatchObject({ carrier_type: 'landline', valid: true });
    expect(simulateLookup('+380800123456')).toMatchObject({ carrier_type: 'toll_free' });
    expect(simulateLookup('+38067123')).toMatchObject({ valid: false });
    const mobiles = Array.from({ length: 2_000 }, (_, i) => simulateLookup(`+38067${String(1_000_000 + i)}`));
    const share = (f: (r: (typeof mobiles)[number]) => boolean) => mobiles.filter(f).length / mobiles.length;
    expect(share((r) => !r.valid)).toBeGreaterThan(0.01);
    expect(share((r) => !r.valid)).toBeLessThan(0.06);
    expect(share((r) => r.ported === true)).toBeGreaterThan(0.03);
    expect(share((r) => r.reachability === 'absent')).toBeGreaterThan(0.02);
    expect(share((r) => r.valid && r.carrier_name === 'Kyivstar' && r.mcc_mnc === '25503')).toBeGreaterThan(0.8);
    expect(simulateLookup('+380671234567')).toEqual(simulateLookup('+380671234567'));
    expect(simulateLookup('+380501234567')).toMatchObject({ carrier_type: 'mobile', carrier_name: expect.any(String) });
  });
});
