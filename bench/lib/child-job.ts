import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs a load generator in a separate Node process: `moduleUrl` (its own `import.meta.url`) is
 * started with `flag`, gets `job` over IPC and answers with its result. A separate process, not a
 * worker thread, so the load shares neither the event loop nor the collector of the server under
 * test (`paced-load.ts`).
 */
export function runInChild<R>(moduleUrl: string, flag: string, job: unknown): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(moduleUrl), [flag], { stdio: 'inherit' });
    child.once('message', (result) => resolve(result as R));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`${flag} exited with ${code}`)));
    child.send(job as object);
  });
}

/** In the child started by `runInChild`: does the job it is sent, answers, exits. */
export function serveChildJob<J, R>(flag: string, work: (job: J) => Promise<R>): void {
  if (!process.argv.includes(flag)) return;
  process.once('message', (job) => {
    work(job as J).then((result) => process.send?.(result, () => process.exit(0)));
  });
}
