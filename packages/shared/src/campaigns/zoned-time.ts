/**
 * A campaign's start is written as a wall-clock time in its time zone (`YYYY-MM-DD HH:mm`) and
 * kept as an instant. Both directions with the runtime's own zone data (Intl), in the browser and
 * on the server alike.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far the zone's wall clock is ahead of UTC at this instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * The instant of a wall-clock time in a zone; an ISO text with its own offset is read as written.
 * A time that a clock change skips is read with the offset before the change (02:30 on a spring
 * night becomes 03:30). Null for text that is no date.
 */
export function zonedToInstant(text: string, timeZone: string): Date | null {
  const m = LOCAL.exec(text.trim());
  if (!m) {
    const d = new Date(text);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const [, y, mo, d, h, mi, s] = m;
  const guess = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const check = new Date(guess);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  return new Date(second);
}

/** Minutes since local midnight of an instant in a zone. */
export function minuteOfDay(instant: Date, timeZone: string): number {
  const w = wallClock(instant.getTime(), timeZone);
  return w.hour * 60 + w.minute;
}

/** `YYYY-MM-DD HH:mm` of an instant in a zone. */
export function instantToZoned(instant: Date, timeZone: string): string {
  const w = wallClock(instant.getTime(), timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

/** The default start: now plus `minutes`, rounded up to the next multiple of `step` minutes. */
export function defaultStart(now: Date, minutes = 5, step = 5): Date {
  const stepMs = step * 60_000;
  return new Date(Math.ceil((now.getTime() + minutes * 60_000) / stepMs) * stepMs);
}
