import { describe, expect, it } from 'vitest';
import { phoneZone, zonesByCallingCode } from './quiet-hours.ts';

describe('quiet hours: the recipient’s zone', () => {
  it('takes the zone of the phone’s country, and the campaign’s zone for a country not listed', () => {
    expect(phoneZone('+380501234567', 'UTC')).toBe('Europe/Kyiv');
    expect(phoneZone('+48601234567', 'UTC')).toBe('Europe/Warsaw');
    expect(phoneZone('+12125550123', 'UTC')).toBe('America/New_York');
    // Brazil is not listed: the campaign's own zone.
    expect(phoneZone('+5511912345678', 'Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(phoneZone('not a phone', 'Asia/Tbilisi')).toBe('Asia/Tbilisi');
  });

  it('matches calling codes longest first, one zone per shared code', () => {
    const zones = zonesByCallingCode();
    const lengths = zones.map((z) => z.prefix.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    expect(new Set(zones.map((z) => z.prefix)).size).toBe(zones.length);
    const zoneOf = (phone: string) => zones.find((z) => phone.startsWith(z.prefix))?.zone;
    expect(zoneOf('+380501234567')).toBe('Europe/Kyiv');
    expect(zoneOf('+79161234567')).toBe('Europe/Moscow');
    expect(zoneOf('+12125550123')).toBe('America/New_York');
    expect(zoneOf('+3725123456')).toBe('Europe/Tallinn');
  });
});
