import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNLIMITED_TRIAL_PLANS } from './test-app.ts';

/** The Trial with a finite number of free SMS: every charge and refund is a ledger row that moves them. */
export function countedSmsPlans(): string {
  const catalogue = JSON.parse(readFileSync(UNLIMITED_TRIAL_PLANS, 'utf8'));
  catalogue.plans[0].features['free-sms-limit'] = 100_000;
  const file = join(tmpdir(), `herald-kill-plans-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

type Worker = { start(): Promise<void>; stop(signal: NodeJS.Signals): Promise<unknown> };

/**
 * kill -9 of worker processes at random moments, one at a time, each started again at once while
 * the others keep sending; goes on until `enough(kills)` says so. When every worker is down it waits
 * for the last one to be back. Answers the number of kills once every restart has finished.
 */
export async function killAtRandom(
  workers: readonly Worker[],
  enough: (kills: number) => Promise<boolean> | boolean,
  gapMs: { min: number; max: number },
): Promise<number> {
  let kills = 0;
  const running = new Set(workers.map((_, i) => i));
  const restarts: Array<Promise<void>> = [];
  while (!(await enough(kills))) {
    await new Promise((r) => setTimeout(r, gapMs.min + Math.random() * (gapMs.max - gapMs.min)));
    const up = [...running];
    if (up.length === 0) continue;
    const victim = up[Math.floor(Math.random() * up.length)] as number;
    running.delete(victim);
    await workers[victim]?.stop('SIGKILL');
    kills++;
    restarts.push(
      (workers[victim] as Worker).start().then(() => {
        running.add(victim);
      }),
    );
    if (running.size === 0) await restarts.at(-1);
  }
  await Promise.all(restarts);
  return kills;
}

/** Every five seconds, where a run is (a slow machine shows where its time goes); call the answer to stop. */
export function everyFiveSeconds(label: string, report: () => Promise<string>): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    void report()
      .then((line) => console.info(`${label} ${Math.round((Date.now() - started) / 1000)}s ${line}`))
      .catch(() => {});
  }, 5_000);
  return () => clearInterval(timer);
}
