/**
 * Group commit: callers add an item and wait for it to be written. One run at a time takes
 * everything waiting (up to `max`), so under load many items share one transaction,
 * and an item that arrives alone is written at once. A batch that fails is run again item by item,
 * so one bad item fails only its own caller.
 */
export function createGroupCommit<T>(run: (items: T[]) => Promise<void>, max: number) {
  const waiting: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function settle(batch: typeof waiting) {
    try {
      await run(batch.map((b) => b.item));
      for (const b of batch) b.resolve();
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else for (const b of batch) await settle([b]);
    }
  }

  async function drain() {
    running = true;
    try {
      while (waiting.length > 0) await settle(waiting.splice(0, max));
    } finally {
      running = false;
    }
  }

  return {
    add(item: T): Promise<void> {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
