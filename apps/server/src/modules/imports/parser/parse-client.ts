import { Worker } from 'node:worker_threads';
import { ImportFailure } from '../import-failure.ts';
import type { ParseJob, ParseMessage } from './parse-protocol.ts';

/** Heap cap of a parser thread: a hostile file ends that thread, never the server. */
const WORKER_HEAP_MB = 384;
/**
 * The parser makes short-lived strings at a high rate; V8's default young generation lets them pile
 * up to a few hundred MB of RSS before a scavenge. 16 MB keeps a 1M-row CSV parse near 100 MB of RSS
 * at the same speed (measured: 276 → 164 MB peak for the whole process).
 */
const WORKER_YOUNG_MB = 16;

/**
 * Runs the parser in a worker thread and yields its messages. Each batch is acknowledged when the
 * consumer asks for the next message, which is what lets the worker read on.
 */
export async function* parseInWorker(job: ParseJob, signal?: AbortSignal): AsyncGenerator<ParseMessage> {
  const worker = new Worker(new URL('./parse-worker.ts', import.meta.url), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  const queue: ParseMessage[] = [];
  let notify: (() => void) | undefined;
  let failure: Error | undefined;
  let exited = false;
  const push = () => {
    notify?.();
    notify = undefined;
  };
  worker.on('message', (m: ParseMessage) => {
    queue.push(m);
    push();
  });
  worker.on('error', (error) => {
    failure =
      /heap|memory/i.test(error.message) || (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new ImportFailure('import_file_row_too_large', 'The file needs more memory to read than an import may use.')
        : error;
    push();
  });
  worker.on('exit', () => {
    exited = true;
    push();
  });
  const abort = () => void worker.terminate();
  signal?.addEventListener('abort', abort);
  try {
    while (true) {
      const message = queue.shift();
      if (message) {
        if (message.type === 'error') throw Object.assign(new Error(message.message), { code: message.code });
        yield message;
        if (message.type === 'batch') worker.postMessage({ type: 'ack' });
        if (message.type === 'done' || message.type === 'preview') return;
        continue;
      }
      if (failure) throw failure;
      if (signal?.aborted) throw new Error('The import was stopped.');
      if (exited) throw new Error('The file reader stopped unexpectedly.');
      await new Promise<void>((resolve) => (notify = resolve));
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    if (!exited) await worker.terminate();
  }
}
