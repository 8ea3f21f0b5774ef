/**
 * Values computed from a team's lead data, kept while the team's `data_version` (see
 * data-version.ts) is unchanged. Counts may be up to 5 minutes old (spec section 9), but a team's
 * own change must show at once: each entry remembers the version it was computed at, and every
 * write that changes what a lead page or a count shows bumps the version in the same transaction,
 * so every API process sees the change on its next request (the version is read with the session).
 */
export function createVersionedCache(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { at: number; version: number; value: unknown }>();
  return {
    async get<T>(key: string, version: number, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.version === version && Date.now() - hit.at < options.ttlMs) return hit.value as T;
      const value = await compute();
      // Oldest first out: a Map iterates in insertion order.
      entries.delete(key);
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { at: Date.now(), version, value });
      return value;
    },
  };
}

export type VersionedCache = ReturnType<typeof createVersionedCache>;
