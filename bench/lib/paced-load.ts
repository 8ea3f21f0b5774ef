import http from 'node:http';
import { runInChild, serveChildJob } from './child-job.ts';

export interface PacedJob {
  base: string;
  /** Requested in turn, round and round. */
  paths: string[];
  /** Requests a second, sent on a fixed schedule whatever the answers do (an open loop). */
  rate: number;
  /** Keep-alive connections at most; a request finding them all busy waits, and that wait counts. */
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** The status a request must answer to succeed. */
  expectStatus: number;
}

export interface PacedResult {
  requests: number;
  /** Answers per second over the measured span. */
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Other statuses, connection errors and answers still missing 5 s after the last send. */
  failures: number;
}

/**
 * A constant arrival rate from a separate process. Each request's latency runs from the moment the
 * schedule said to send it, so a stalled server is charged for every request that queued behind the
 * stall (a closed loop, or a generator that sends late, would hide them). The process is separate
 * because a load generator in the server's own process (a worker thread there) competes with the
 * server's threads and collector and sends in bursts: measured that way, even a bare Fastify 302 at
 * 1,000 req/s showed a p99 of 24–48 ms (`bench/README.md`, redirects).
 */
export function pacedLoad(job: PacedJob): Promise<PacedResult> {
  if (new URL(job.base).hostname !== '127.0.0.1') throw new Error(`Benchmarks only load 127.0.0.1, not ${job.base}`);
  return runInChild<PacedResult>(import.meta.url, '--paced-load-child', job);
}

async function work(job: PacedJob): Promise<PacedResult> {
  const url = new URL(job.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  let answered = 0;
  const total = Math.round(job.rate * job.seconds);
  const started = performance.now();
  let lastAnswer = started;

  function send(i: number, due: number) {
    const req = http.get(
      { agent, host: url.hostname, port: url.port, path: job.paths[i % job.paths.length], headers: job.headers },
      (res) => {
        res.resume();
        res.on('end', () => {
          lastAnswer = performance.now();
          answered++;
          latencies.push(lastAnswer - due);
          if (res.statusCode !== job.expectStatus) failures++;
        });
      },
    );
    req.on('error', () => {
      answered++;
      failures++;
    });
  }

  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      const now = performance.now();
      // Every request due by now goes out now, each timed from its own due moment.
      while (sent < total && started + (sent * 1000) / job.rate <= now) {
        send(sent, started + (sent * 1000) / job.rate);
        sent++;
      }
      if (sent === total && (answered === total || now - started > job.seconds * 1000 + 5000)) {
        clearInterval(tick);
        done();
      }
    }, 1);
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: answered,
    requestsPerSecond: Math.round(latencies.length / ((lastAnswer - started) / 1000)),
    latencyP50Ms: Number(at(0.5).toFixed(1)),
    latencyP99Ms: Number(at(0.99).toFixed(1)),
    latencyMaxMs: Number((latencies.at(-1) ?? 0).toFixed(1)),
    failures: failures + (total - answered),
  };
}

serveChildJob('--paced-load-child', work);
