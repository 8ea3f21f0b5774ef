import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Unmeasured run first, so the JIT and the connection pools are warm. */
  warmupSeconds: number;
  /** Sent with every request, e.g. `authorization: Bearer …`. */
  headers?: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Responses outside 2xx, plus connection errors and timeouts: any of them voids the run. */
  failures: number;
}

/**
 * Drives `url` with autocannon from a worker thread, so the load generator does not share the
 * event loop of the server under test (both live in this process).
 */
export async function drive(url: string, options: LoadOptions): Promise<LoadResult> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`Benchmarks only load 127.0.0.1, not ${url}`);
  const run = (duration: number) =>
    autocannon({ url, connections: options.connections, duration, headers: options.headers, workers: 1 });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.durationSeconds);
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
