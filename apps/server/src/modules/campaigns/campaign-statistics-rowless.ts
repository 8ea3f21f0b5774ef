import type { RowGroup } from './campaign-statistics.repository.ts';

interface Step {
  id: number | string;
  position: number;
  redirect_to: string | null;
}

/**
 * Per step, the recipients with no message row, by their skip reason ('' for none), from the
 * summary's recipient counts instead of an anti-join of every recipient against the step's rows.
 * A message row exists only for a recipient to send (reason ''), except that the frequency cap
 * skips a row and marks its recipient 'capped' in one statement when the row is on the step at
 * position 1 (`campaign-cap.ts`): on that step those rows belong to 'capped' recipients.
 */
export function rowlessOf(
  steps: Step[],
  groups: RowGroup[],
  byReason: Map<string, number>,
  firstPosition: number | null,
): Array<{ step_id: number; reason: string; n: number }> {
  const out: Array<{ step_id: number; reason: string; n: number }> = [];
  for (const s of steps) {
    const id = Number(s.id);
    const mine = groups.filter((g) => g.step_id === id);
    const rows = mine.reduce((n, g) => n + g.n, 0);
    const capped =
      s.position === firstPosition
        ? mine.filter((g) => g.bucket === 'skipped' && g.reason === 'capped').reduce((n, g) => n + g.n, 0)
        : 0;
    for (const [reason, n] of byReason) {
      const left = reason === '' ? n - (rows - capped) : reason === 'capped' ? n - capped : n;
      if (left > 0) out.push({ step_id: id, reason, n: left });
    }
  }
  return out;
}

/** The summary's clicked targets, and each step's target not clicked yet (0), at most 50. */
export function withStepTargets<T extends { redirect_to: string | null; clickers: number }>(
  links: T[],
  steps: Step[],
): Array<T | { redirect_to: string; clickers: number; human_clicks: number; other_hits: number }> {
  const seen = new Set(links.map((l) => l.redirect_to));
  const zero = [...new Set(steps.flatMap((s) => (s.redirect_to ? [s.redirect_to] : [])))]
    .filter((r) => !seen.has(r))
    .sort()
    .map((r) => ({ redirect_to: r, clickers: 0, human_clicks: 0, other_hits: 0 }));
  return [...links, ...zero].slice(0, 50);
}
