const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 2_000;

/**
 * Lead counts may be up to 5 minutes old (spec section 9), but a team's own change must show at
 * once: each entry remembers the team's `data_version`, bumped on every write to its leads.
 */
export function createCountsCache() {
  const entries = new Map<string, { at: number; version: number; value: unknown }>();
  return {
    async get<T>(key: string, version: number, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.version === version && Date.now() - hit.at < TTL_MS) return hit.value as T;
      const value = await compute();
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(key, { at: Date.now(), version, value });
      return value;
    },
  };
}

export type CountsCache = ReturnType<typeof createCountsCache>;
