import { describe, expect, it } from 'vitest';
import { advance, forecastFinish, nextOpen } from './campaign-forecast.ts';

const quiet = { from: '21:00', to: '09:00', timeZone: 'UTC' };
const at = (iso: string) => new Date(iso);

describe('campaign forecast', () => {
  it('waits for the morning inside quiet hours', () => {
    expect(nextOpen(at('2026-12-01T22:30:00Z'), quiet).toISOString()).toBe('2026-12-02T09:00:00.000Z');
    expect(nextOpen(at('2026-12-01T08:59:00Z'), quiet).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(nextOpen(at('2026-12-01T12:00:00Z'), quiet).toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(nextOpen(at('2026-12-01T22:30:00Z'), null).toISOString()).toBe('2026-12-01T22:30:00.000Z');
  });

  it('carries sending time over the night', () => {
    // 60 minutes from 20:30: 30 before 21:00, the other 30 from 09:00.
    expect(advance(at('2026-12-01T20:30:00Z'), 60, quiet).toISOString()).toBe('2026-12-02T09:30:00.000Z');
    expect(advance(at('2026-12-01T20:30:00Z'), 60, null).toISOString()).toBe('2026-12-01T21:30:00.000Z');
  });

  it('reads quiet hours in the zone given', () => {
    // 19:30 UTC is 21:30 in Kyiv in winter: quiet until 09:00 Kyiv, 07:00 UTC.
    const kyiv = { ...quiet, timeZone: 'Europe/Kyiv' };
    expect(nextOpen(at('2026-12-01T19:30:00Z'), kyiv).toISOString()).toBe('2026-12-02T07:00:00.000Z');
  });

  it('adds each step at the rate and keeps every recipient’s delay', () => {
    const finish = forecastFinish({
      start: at('2026-12-01T10:00:00Z'),
      perMinute: 60,
      steps: [
        { recipients: 600, delayMinutes: 0 },
        { recipients: 600, delayMinutes: 60 },
      ],
      quiet: null,
    });
    // Step 1: 10:00–10:10; step 2 from 11:00 at 60 a minute: 11:10.
    expect(finish?.toISOString()).toBe('2026-12-01T11:10:00.000Z');
    const spaced = forecastFinish({
      start: at('2026-12-01T10:00:00Z'),
      perMinute: 10,
      steps: [
        { recipients: 600, delayMinutes: 0 },
        { recipients: 600, delayMinutes: 5 },
      ],
      quiet: null,
    });
    // Step 1 takes an hour; its last recipient's step 2 is due 5 minutes after: 11:05.
    expect(spaced?.toISOString()).toBe('2026-12-01T11:05:00.000Z');
  });

  it('has no finish without steps or rate', () => {
    expect(forecastFinish({ start: at('2026-12-01T10:00:00Z'), perMinute: 60, steps: [], quiet })).toBeNull();
  });
});
