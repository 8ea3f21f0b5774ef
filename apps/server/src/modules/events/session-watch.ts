/**
 * Ends open live-event streams whose session has been revoked (log out, block, password change) or
 * has expired. Every open stream's session is checked in one query per interval, so a stream
 * outlives its session by at most one interval, whichever process revoked it.
 */
export function createSessionWatch(liveSessions: (ids: string[]) => Promise<Set<string>>, everyMs: number) {
  const streams = new Map<() => void, string>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let checking = false;

  const check = async () => {
    if (checking || streams.size === 0) return;
    checking = true;
    try {
      const live = await liveSessions([...new Set(streams.values())]);
      for (const [end, sessionId] of streams) if (!live.has(sessionId)) end();
    } catch {
      // The database is away for a moment: the next interval asks again.
    } finally {
      checking = false;
    }
  };

  return {
    /** Watches a stream until `end` is called (by this watch or by its own close). */
    add(sessionId: string, end: () => void) {
      streams.set(end, sessionId);
      if (!timer) {
        timer = setInterval(check, everyMs);
        timer.unref();
      }
    },
    remove(end: () => void) {
      streams.delete(end);
      if (streams.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      streams.clear();
    },
  };
}
