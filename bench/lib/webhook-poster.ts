import http from 'node:http';
import { runInChild, serveChildJob } from './child-job.ts';

/** One provider callback: the path on the target, its form body and the headers it is signed with. */
export interface Callback {
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface PostResult {
  seconds: number;
  requests: number;
  /** Anything but a 200, and connection errors. */
  failures: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
}

interface Job {
  base: string;
  connections: number;
  /** One sequence per message (e.g. sent, then delivered): posted in order, one after the other. */
  sequences: Callback[][];
  /** Callbacks per second at most, spread evenly (a provider's steady stream); as fast as taken when absent. */
  rate?: number;
}

/**
 * Posts every sequence once to `base` with `connections` keep-alive connections, from a separate
 * process, so the load generator shares neither the event loop nor the collector of the server
 * under test (see `paced-load.ts`). Each connection takes the next message and posts its
 * callbacks in order, as a provider does.
 */
export function postCallbacks(job: Job): Promise<PostResult> {
  if (new URL(job.base).hostname !== '127.0.0.1') throw new Error(`Benchmarks only load 127.0.0.1, not ${job.base}`);
  return runInChild<PostResult>(import.meta.url, '--webhook-poster-child', job);
}

async function post(agent: http.Agent, base: URL, callback: Callback): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: callback.path,
        headers: { ...callback.headers, 'content-length': Buffer.byteLength(callback.body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(callback.body);
  });
}

async function work({ base, connections, sequences, rate }: Job): Promise<PostResult> {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  let scheduled = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < sequences.length) {
        const sequence = sequences[next++];
        for (const callback of sequence) {
          if (rate) {
            // The n-th callback is due n / rate seconds after the start.
            const wait = started + (scheduled++ / rate) * 1000 - performance.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          }
          const t = performance.now();
          if ((await post(agent, url, callback)) !== 200) failures++;
          latencies.push(performance.now() - t);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    seconds,
    requests: latencies.length,
    failures,
    latencyP50Ms: Number(at(0.5).toFixed(1)),
    latencyP99Ms: Number(at(0.99).toFixed(1)),
  };
}

serveChildJob('--webhook-poster-child', work);
