/** What the lookup engine keeps in memory per process, so a batch costs no more statements than it must. */

const RATE_WINDOW_MS = 30_000;

/** Phones settled per lookup in the last half minute: the measured rate behind time_left. */
export function createPace() {
  const settled = new Map<number, Array<[number, number]>>();
  return {
    measure(id: number, n: number) {
      const now = Date.now();
      const list = (settled.get(id) ?? []).filter(([at]) => now - at < RATE_WINDOW_MS);
      list.push([now, n]);
      settled.set(id, list);
    },
    /** Phones a second, or null before anything was settled. */
    rateOf(id: number): number | null {
      const list = settled.get(id);
      if (!list || list.length === 0) return null;
      const span = Math.max(1_000, Date.now() - list[0][0]);
      return (list.reduce((s, [, n]) => s + n, 0) * 1000) / span;
    },
    forget(id: number) {
      settled.delete(id);
    },
  };
}

/**
 * The payer's balance told to their header at most once a second (a batch settles every few
 * milliseconds at full speed), the last change always told: a balance a second late, not a query
 * and an event per batch.
 */
export function throttledAnnounce(
  announce: (teamId: number, userIds: number[], options?: { raised?: boolean }) => Promise<void>,
  report: (err: unknown, msg: string) => void,
) {
  const toldAt = new Map<string, number>();
  const pending = new Map<string, NodeJS.Timeout>();
  return (teamId: number, userId: number, raised = false) => {
    const key = `${teamId}:${userId}`;
    if (pending.has(key)) return;
    const tell = () => {
      pending.delete(key);
      toldAt.set(key, Date.now());
      announce(teamId, [userId], { raised }).catch((err) => report(err, 'lookups: balance not told'));
    };
    const wait = 1_000 - (Date.now() - (toldAt.get(key) ?? 0));
    if (wait <= 0) tell();
    else pending.set(key, setTimeout(tell, wait).unref());
  };
}

/** A payer's lookup price, kept five seconds (it changes only with the price list or their currency). */
export function cachedPrice(priceOf: (teamId: number, userId: number) => Promise<number>) {
  const prices = new Map<string, { until: number; price: number }>();
  return async (teamId: number, userId: number) => {
    const key = `${teamId}:${userId}`;
    const hit = prices.get(key);
    if (hit && hit.until > Date.now()) return hit.price;
    const price = await priceOf(teamId, userId);
    prices.set(key, { until: Date.now() + 5_000, price });
    return price;
  };
}
