/**
 * Time left as the table and the popover say it: seconds under a minute, whole minutes (rounded
 * up, so a lookup never reads "0 min" while it still runs) under an hour, else hours and minutes.
 * Returns the translation key and its values; null when nothing is known (not running, no rate yet).
 */
export function timeLeftWords(seconds: number | null): { key: string; values: Record<string, number> } | null {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return null;
  const s = Math.ceil(seconds);
  if (s < 60) return { key: 'timeLeft.seconds', values: { count: s } };
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return { key: 'timeLeft.minutes', values: { count: minutes } };
  return { key: 'timeLeft.hours', values: { h: Math.floor(minutes / 60), m: minutes % 60 } };
}
