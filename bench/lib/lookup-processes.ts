// The lookup benchmark's helpers: the fake Twilio Lookup (apps/server/test/support/fake-providers/
// fake-lookup.ts) in a process of its own, answering after 20 ms, so its ceiling is a separate
// server's; and Herald worker processes (HERALD_ROLE=worker) with the lookup engine's rate limit off.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { startFakeLookup } from '../../apps/server/test/support/fake-providers/fake-lookup.ts';

const FAKE = '--fake-lookup';
const WORKER = '--lookup-worker';
/** The lookup engine as the benchmark runs it: the gateway's rate off, calls as concurrent as configured. */
export const BENCH_LOOKUP_ENGINE = { rateLimit: false, lanes: 4, batch: 250, concurrency: 16 };

export interface FakeLookupProcess {
  url: string;
  account: { sid: string; token: string };
  /** Phones asked, and of those asked more than once. */
  counts(): Promise<{ phones: number; repeated: number; calls: number }>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

function child(flag: string): { proc: ChildProcess; next<T>(): Promise<T> } {
  const proc = fork(fileURLToPath(import.meta.url), [flag], { stdio: 'inherit' });
  return {
    proc,
    next: <T>() =>
      new Promise<T>((resolve, reject) => {
        proc.once('message', (m) => resolve(m as T));
        proc.once('error', reject);
      }),
  };
}
const closeChild = async (proc: ChildProcess) => {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.send({ type: 'close' });
  await exited;
};

export async function startFakeLookupProcess(latencyMs: number): Promise<FakeLookupProcess> {
  const { proc, next } = child(FAKE);
  proc.send({ type: 'start', latencyMs });
  const ready = await next<{ url: string; account: { sid: string; token: string } }>();
  return {
    ...ready,
    async counts() {
      const answer = next<{ phones: number; repeated: number; calls: number }>();
      proc.send({ type: 'counts' });
      return answer;
    },
    async reset() {
      const answer = next<unknown>();
      proc.send({ type: 'reset' });
      await answer;
    },
    close: () => closeChild(proc),
  };
}

/** A worker process on `env` (the API process's configuration), running the lookup engine. */
export async function startLookupWorker(env: Record<string, string>, jobsSchema?: string) {
  const { proc, next } = child(WORKER);
  proc.send({ type: 'start', env: { ...env, HERALD_ROLE: 'worker' }, jobsSchema });
  await next<unknown>();
  return { close: () => closeChild(proc) };
}

if (process.argv.includes(FAKE)) {
  let fake: Awaited<ReturnType<typeof startFakeLookup>> | undefined;
  process.on('message', async (m: { type: string; latencyMs?: number }) => {
    if (m.type === 'start') {
      fake = await startFakeLookup({ latencyMs: m.latencyMs });
      process.send?.({ url: fake.url, account: fake.account });
    } else if (m.type === 'counts' && fake) {
      const values = [...fake.state.calls.values()];
      process.send?.({
        phones: values.length,
        repeated: values.filter((n) => n > 1).length,
        calls: values.reduce((a, b) => a + b, 0),
      });
    } else if (m.type === 'reset' && fake) {
      fake.state.calls.clear();
      process.send?.('reset');
    } else if (m.type === 'close') {
      await fake?.close();
      process.disconnect();
    }
  });
}

if (process.argv.includes(WORKER)) {
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  process.on('message', async (m: { type: string; env?: Record<string, string>; jobsSchema?: string }) => {
    if (m.type === 'start' && m.env) {
      app = await buildApp(loadConfig(m.env), {
        logger: false,
        jobsSchema: m.jobsSchema,
        lookupsEngine: BENCH_LOOKUP_ENGINE,
      });
      process.send?.('ready');
    } else if (m.type === 'close') {
      await app?.close();
      process.disconnect();
    }
  });
}
