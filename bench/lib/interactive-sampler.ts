import type { Row } from './types.ts';

/**
 * What a person feels while bulk work runs: requests that go through the database (the session and
 * a leads page), each asked every 100 ms, their latency beside the same requests on an idle app in
 * the same run. `/api/health` is sampled too, as the ceiling: on the embedded database it does not
 * wait for the connection, so it cannot prove the app responsive.
 */
export interface SampledRoute {
  label: string;
  path: string;
}

export interface LatencyStats {
  label: string;
  count: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

export const PERSON_ROUTES: SampledRoute[] = [
  { label: 'GET /api/user', path: '/api/user' },
  { label: 'GET /api/leads (page of 50)', path: '/api/leads?limit=50&page=2' },
  { label: 'GET /api/health', path: '/api/health' },
];

const EVERY_MS = 100;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (ms: number) => Number(ms.toFixed(1));

/** Starts one loop per route: a request, then the rest of 100 ms (at once when it took longer). */
export function startSampler(url: string, headers: Record<string, string>, routes: SampledRoute[] = PERSON_ROUTES) {
  let running = true;
  // While paused (the benchmark's own reference queries hold the database), nothing is sampled:
  // a request counts only when it started and ended outside every pause.
  let paused = false;
  let pauses = 0;
  const samples = routes.map(() => ({ times: [] as number[], failed: 0 }));
  const loops = routes.map(async (route, i) => {
    while (running) {
      if (paused) {
        await new Promise((r) => setTimeout(r, EVERY_MS));
        continue;
      }
      const epoch = pauses;
      const started = performance.now();
      try {
        const r = await fetch(`${url}${route.path}`, { headers, signal: AbortSignal.timeout(30_000) });
        await r.arrayBuffer();
        if (!r.ok) samples[i].failed++;
      } catch {
        samples[i].failed++;
      }
      const took = performance.now() - started;
      if (paused || epoch !== pauses) continue;
      samples[i].times.push(took);
      if (running) await new Promise((r) => setTimeout(r, Math.max(0, EVERY_MS - took)));
    }
  });
  let stopped: Promise<LatencyStats[]> | undefined;
  return {
    /** Runs `work` unsampled: what the benchmark does besides the app (its reference SQL). */
    async unsampled<T>(work: () => Promise<T>): Promise<T> {
      paused = true;
      pauses++;
      try {
        return await work();
      } finally {
        paused = false;
      }
    },
    /** Ends the loops (idempotent) and returns each route's figures. */
    stop(): Promise<LatencyStats[]> {
      running = false;
      stopped ??= Promise.all(loops).then(() =>
        routes.map((route, i) => {
          const { times, failed } = samples[i];
          return {
            label: route.label,
            count: times.length,
            p50: round(percentile(times, 50)),
            p99: round(percentile(times, 99)),
            max: round(times.length ? Math.max(...times) : 0),
            failed,
          };
        }),
      );
      return stopped;
    },
  };
}

/** The idle figure: the same routes sampled for `seconds` before the work starts. */
export async function sampleIdle(
  url: string,
  headers: Record<string, string>,
  seconds = 3,
  routes: SampledRoute[] = PERSON_ROUTES,
): Promise<LatencyStats[]> {
  const sampler = startSampler(url, headers, routes);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return sampler.stop();
}

/** One line per route for the log: during p50/p99/max (idle p50/p99). */
export function describeSamples(during: LatencyStats[], idle: LatencyStats[]): string {
  return during
    .map((d, i) => {
      const quiet = idle[i];
      return `${d.label}: p50 ${d.p50} / p99 ${d.p99} / max ${d.max} ms, ${d.count} requests, ${d.failed} failed (idle p50 ${quiet?.p50} / p99 ${quiet?.p99})`;
    })
    .join('; ');
}

/** The interactive bar during bulk work unless a benchmark's issue sets its own. */
const BULK_BAR = { target: 150, source: 'issue 24: interactive p99 during bulk work' };

/**
 * Rows for the table: p50, p99 and slowest of each route during the work, the idle figure of the
 * same run as the reference. The database-bound routes carry the bar (p99 ≤ 150 ms unless `bar`
 * says otherwise, no failures); health is printed as the ceiling.
 */
export function sampleRows(
  during: string,
  stats: LatencyStats[],
  idle: LatencyStats[],
  bar: { target: number; source: string } = BULK_BAR,
): Row[] {
  const rows: Row[] = [];
  for (const [i, s] of stats.entries()) {
    const quiet = idle[i];
    const ceiling = s.label === 'GET /api/health';
    const name = `${s.label} during ${during}`;
    rows.push(
      { metric: `${name}, p50 (${s.count} requests)`, value: s.p50, unit: 'ms', reference: idleRef(quiet?.p50) },
      {
        metric: `${name}, p99`,
        value: s.p99,
        unit: 'ms',
        reference: idleRef(quiet?.p99),
        ...(ceiling
          ? {}
          : {
              bar: { op: '<=', target: bar.target, of: 'value', source: bar.source } as const,
            }),
      },
      { metric: `${name}, slowest`, value: s.max, unit: 'ms', reference: idleRef(quiet?.max) },
      {
        metric: `${name}, failed`,
        value: s.failed,
        unit: 'requests',
        bar: { op: '<=', target: 0, of: 'value', source: 'the app keeps serving' },
      },
    );
  }
  return rows;
}

function idleRef(value: number | undefined) {
  return value === undefined ? undefined : { value, label: 'idle, same run' };
}
