import { describe, expect, it } from 'vitest';
import { defaultStart, instantToZoned, zonedToInstant } from './zoned-time.ts';

describe('zoned time', () => {
  it('reads a wall-clock time in its zone, across summer and winter time', () => {
    expect(zonedToInstant('2026-07-01 10:00', 'Europe/Kyiv')?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedToInstant('2026-12-01 10:00', 'Europe/Kyiv')?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(zonedToInstant('2026-12-01 10:00', 'America/New_York')?.toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(zonedToInstant('2026-12-01 10:00', 'UTC')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
  });

  it('reads an ISO text with an offset as written, and refuses dates that do not exist', () => {
    expect(zonedToInstant('2026-12-01T10:00:00Z', 'Europe/Kyiv')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(zonedToInstant('2026-02-30 10:00', 'UTC')).toBeNull();
    expect(zonedToInstant('tomorrow', 'UTC')).toBeNull();
  });

  it('moves a time a spring clock change skips forward', () => {
    // Kyiv skips 03:00–04:00 on 2026-03-29.
    expect(instantToZoned(zonedToInstant('2026-03-29 03:30', 'Europe/Kyiv') as Date, 'Europe/Kyiv')).toBe(
      '2026-03-29 04:30',
    );
  });

  it('writes an instant back as the form shows it', () => {
    expect(instantToZoned(new Date('2026-07-01T07:00:00Z'), 'Europe/Kyiv')).toBe('2026-07-01 10:00');
  });

  it('defaults to now + 5 minutes on a 5-minute step', () => {
    expect(defaultStart(new Date('2026-07-01T07:01:10Z')).toISOString()).toBe('2026-07-01T07:10:00.000Z');
    expect(defaultStart(new Date('2026-07-01T07:05:00Z')).toISOString()).toBe('2026-07-01T07:10:00.000Z');
  });
});
