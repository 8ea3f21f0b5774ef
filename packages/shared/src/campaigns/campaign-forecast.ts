import { minuteOfDay } from './zoned-time.ts';

/** A daily window in which nothing is sent, in a zone: `from` 21:00 to `to` 09:00 by default. */
export interface QuietWindow {
  from: string;
  to: string;
  timeZone: string;
}

const MINUTE = 60_000;
const DAY_MINUTES = 1440;
const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a local minute of the day falls inside the window. */
function isQuiet(minute: number, from: number, to: number): boolean {
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/** The first instant at or after `t` outside the window. */
export function nextOpen(t: Date, quiet: QuietWindow | null): Date {
  if (!quiet) return t;
  const from = toMinutes(quiet.from);
  const to = toMinutes(quiet.to);
  const m = minuteOfDay(t, quiet.timeZone);
  if (!isQuiet(m, from, to)) return t;
  const wait = (to - m + DAY_MINUTES) % DAY_MINUTES;
  return new Date(Math.floor(t.getTime() / MINUTE) * MINUTE + wait * MINUTE);
}

/** `t` plus `minutes` of sending time, the quiet hours skipped. */
export function advance(t: Date, minutes: number, quiet: QuietWindow | null): Date {
  let at = nextOpen(t, quiet);
  if (!quiet || toMinutes(quiet.from) === toMinutes(quiet.to)) return new Date(at.getTime() + minutes * MINUTE);
  let left = minutes;
  const from = toMinutes(quiet.from);
  for (let i = 0; i < 10_000 && left > 0; i++) {
    const open = (from - minuteOfDay(at, quiet.timeZone) + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
    if (left <= open) return new Date(at.getTime() + left * MINUTE);
    left -= open;
    at = nextOpen(new Date(at.getTime() + open * MINUTE), quiet);
  }
  return at;
}

/**
 * When a campaign's last message is expected out. Step 1 starts at `start`; step k's first message
 * is due its delay after step k−1's first, and its last no sooner than its delay after step k−1's
 * last (each recipient keeps their spacing); each step sends at `perMinute`; quiet hours (in the
 * campaign's zone) hold sending. Steps that overlap are counted as if each had the whole rate, so
 * the estimate is early only where two steps send at the same time.
 */
export function forecastFinish(input: {
  start: Date;
  perMinute: number;
  steps: ReadonlyArray<{ recipients: number; delayMinutes: number }>;
  quiet: QuietWindow | null;
}): Date | null {
  if (!(input.perMinute > 0) || input.steps.length === 0) return null;
  let first = input.start;
  let last = input.start;
  input.steps.forEach((step, k) => {
    const delay = k === 0 ? 0 : step.delayMinutes * MINUTE;
    const from = nextOpen(new Date(first.getTime() + delay), input.quiet);
    const sending = advance(from, step.recipients / input.perMinute, input.quiet);
    const spaced = k === 0 ? sending : nextOpen(new Date(last.getTime() + delay), input.quiet);
    first = from;
    last = new Date(Math.max(sending.getTime(), spaced.getTime()));
  });
  return last;
}
