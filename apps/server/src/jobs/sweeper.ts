/**
 * Runs `sweep(true)` at once, then `sweep(false)` every `everyMs`, never two at a time: the
 * resumers of long jobs (imports, exports) find runs that died with their process this way.
 */
export async function startSweeper(
  everyMs: number,
  sweep: (first: boolean) => Promise<void>,
): Promise<{ stop(): void }> {
  await sweep(true);
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep(false)
      // A failed sweep (database restarting) is tried again on the next tick.
      .catch(() => {})
      .finally(() => {
        sweeping = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
