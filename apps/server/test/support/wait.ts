/**
 * How long a test waits for what follows a thing it has already seen (an event after its row, a
 * table dropped after the import ends): instant on an idle machine, seconds on a loaded one.
 */
export const AFTERWARDS_MS = 30_000;

/**
 * Polls `check` until it holds, or fails naming `what` after `timeoutMs`. A test waits this way
 * for the very thing it asserts next (the event, the row, the mail), never for something that
 * usually comes first: under load the order of two things is not the order of their usual timing.
 */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits for an item of `items` (a list a stream appends to) that matches `predicate` and returns it.
 */
export async function waitForItem<T>(
  what: string,
  items: () => readonly T[],
  predicate: (item: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  let found: T | undefined;
  await waitUntil(
    what,
    () => {
      found = items().find(predicate);
      return found !== undefined;
    },
    timeoutMs,
  );
  return found as T;
}
