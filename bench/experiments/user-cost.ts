// What one `GET /api/user` costs, statement by statement: `node bench/experiments/user-cost.ts [n]`,
// on PostgreSQL with BENCH_DATABASE_URL. Prints the request's p50/p99 in process and the statements it runs.
import pg from 'pg';
import { startHerald } from '../lib/herald.ts';
import { percentile } from '../lib/interactive-sampler.ts';

const n = Number(process.argv[2] ?? 300);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const ctx = {
  database: databaseUrl ? ('postgres' as const) : ('embedded' as const),
  databaseUrl,
  durationSeconds: 0,
  log: (m: string) => console.error(m),
};
const herald = await startHerald(ctx);
try {
  const { token } = await herald.signUpOwner();
  const headers = { authorization: `Bearer ${token}` };
  // The statements of one request, with their times.
  const seen: Array<{ ms: number; sql: string }> = [];
  let record = false;
  const query = pg.Client.prototype.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    const t = performance.now();
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads
    const out = (query as any).apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    if (record && out && typeof out.then === 'function')
      out.then(() => seen.push({ ms: performance.now() - t, sql: String(text).replace(/\s+/g, ' ').slice(0, 150) }));
    return out;
  };
  record = true;
  await (await fetch(`${herald.url}/api/user`, { headers })).text();
  record = false;
  for (const s of seen) console.log(`  ${s.ms.toFixed(2).padStart(7)} ms  ${s.sql}`);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await fetch(`${herald.url}/api/user`, { headers });
    await r.text();
    times.push(performance.now() - t);
  }
  console.log(
    `GET /api/user ×${n}: p50 ${percentile(times, 50).toFixed(2)} p99 ${percentile(times, 99).toFixed(2)} ms`,
  );
  const h: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await (await fetch(`${herald.url}/api/health`)).text();
    h.push(performance.now() - t);
  }
  console.log(`GET /api/health ×${n}: p50 ${percentile(h, 50).toFixed(2)} p99 ${percentile(h, 99).toFixed(2)} ms`);
} finally {
  await herald.close();
}
