// A Herald worker process (HERALD_ROLE=worker) for the dispatch benchmark: the real app, built with
// the send engine's rates off, on the same PostgreSQL schema and DATA_DIR as the benchmark's API
// process. Its dispatch loop sends whatever rows are due; it stops when told.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';

const FLAG = '--dispatch-worker';

export interface DispatchWorker {
  close(): Promise<void>;
}

/** Starts a worker process on `env` (the API process's configuration) and waits until it runs. */
export async function startDispatchWorker(env: Record<string, string>, jobsSchema?: string): Promise<DispatchWorker> {
  // BENCH_CPU_PROFILE=<dir>: each worker writes a V8 CPU profile there when it stops (where the time goes).
  const profile = process.env.BENCH_CPU_PROFILE;
  const execArgv = profile ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profile}`] : process.execArgv;
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [FLAG], { stdio: 'inherit', execArgv });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dispatch worker exited with ${code}`)));
    child.send({ env: { ...env, HERALD_ROLE: 'worker' }, jobsSchema });
  });
  return {
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send('close');
      await exited;
    },
  };
}

if (process.argv.includes(FLAG)) {
  process.once('message', async (job: { env: Record<string, string>; jobsSchema?: string }) => {
    const app = await buildApp(loadConfig(job.env), {
      logger: false,
      jobsSchema: job.jobsSchema,
      messagesEngine: { rates: false },
    });
    process.on('message', async () => {
      await app.close();
      // A natural exit, so a CPU profile asked for (--cpu-prof) is written.
      process.disconnect();
      process.exitCode = 0;
    });
    process.send?.('ready');
  });
}
