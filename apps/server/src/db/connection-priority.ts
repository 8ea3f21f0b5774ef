import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is asking for the database. The embedded database is one connection: a request a person
 * waits for (`interactive`) is granted it before background work (`bulk`: import chunks, exports,
 * and whatever else runs long in jobs), so pages stay quick while bulk work runs (decision 013).
 * PostgreSQL has a pool and ignores it.
 */
export type ConnectionPriority = 'interactive' | 'bulk';

const priority = new AsyncLocalStorage<ConnectionPriority>();

/** Runs `work` with every database use inside it (awaits included) marked as bulk work. */
export function runAsBulk<T>(work: () => T): T {
  return priority.run('bulk', work);
}

/** The priority of the code running now: interactive unless inside `runAsBulk`. */
export function currentPriority(): ConnectionPriority {
  return priority.getStore() ?? 'interactive';
}
