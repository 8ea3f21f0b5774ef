// `npm run bench [name…]`: runs the benchmarks in bench/benchmarks (all, or those named), prints a
// table and writes bench/results/latest.json. Environment: BENCH_DATABASE_URL (PostgreSQL instead of
// the embedded database), BENCH_DURATION (seconds of measured load per target, default 10).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Bar, BenchContext, Benchmark, Row } from './lib/types.ts';

const benchmarksDir = new URL('./benchmarks/', import.meta.url);
const resultFile = new URL('./results/latest.json', import.meta.url);

interface RowResult extends Row {
  ratio: number | null;
  verdict: 'pass' | 'FAIL' | null;
}

interface BenchResult {
  name: string;
  description: string;
  seconds: number;
  rows: RowResult[];
  error?: string;
}

async function main() {
  const available = await discover();
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !available.some((b) => b.name === n));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${available.map((b) => b.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const selected = wanted.length > 0 ? available.filter((b) => wanted.includes(b.name)) : available;

  const ctx = readContext();
  const machine = await describeMachine(ctx);
  const log = ctx.log;
  log(`${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.database.mode} database`);
  if (machine.loadAverage1m > machine.cpus / 2) {
    log(`warning: load average ${machine.loadAverage1m} on ${machine.cpus} CPUs; other work will skew the figures`);
  }

  const results: BenchResult[] = [];
  for (const bench of selected) {
    log(`▶ ${bench.name}: ${bench.description}`);
    const started = performance.now();
    const result: BenchResult = { name: bench.name, description: bench.description, seconds: 0, rows: [] };
    try {
      result.rows = (await bench.run({ ...ctx, log: (m) => log(`  ${bench.name}: ${m}`) })).map(judge);
    } catch (error) {
      result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`  ${bench.name} failed: ${result.error}`);
    }
    result.seconds = round((performance.now() - started) / 1000);
    results.push(result);
  }

  console.log(formatTable(results));
  mkdirSync(new URL('./', resultFile), { recursive: true });
  const report = { date: new Date().toISOString(), machine, durationSeconds: ctx.durationSeconds, results };
  writeFileSync(resultFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`written ${fileURLToPath(resultFile)}`);
  if (results.some((r) => r.error || r.rows.some((row) => row.verdict === 'FAIL'))) process.exitCode = 1;
}

async function discover(): Promise<Benchmark[]> {
  const files = readdirSync(benchmarksDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort();
  const benchmarks: Benchmark[] = [];
  for (const file of files) {
    const mod = (await import(new URL(file, benchmarksDir).href)) as Partial<Benchmark>;
    if (typeof mod.name !== 'string' || typeof mod.run !== 'function') {
      throw new Error(`${file} must export name, description and run(ctx)`);
    }
    benchmarks.push({ name: mod.name, description: mod.description ?? '', run: mod.run });
  }
  return benchmarks;
}

function readContext(): BenchContext {
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('BENCH_DATABASE_URL must be a postgres:// connection string');
  }
  const durationSeconds = Number(process.env.BENCH_DURATION || 10);
  if (!Number.isFinite(durationSeconds) || durationSeconds < 1) {
    throw new Error('BENCH_DURATION must be a number of seconds ≥ 1');
  }
  return {
    database: databaseUrl ? 'postgres' : 'embedded',
    databaseUrl,
    durationSeconds,
    log: (message) => console.error(message),
  };
}

async function describeMachine(ctx: BenchContext) {
  const cpus = os.cpus();
  let server: string | undefined;
  if (ctx.databaseUrl) {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect().catch((error: Error) => {
      throw new Error(`BENCH_DATABASE_URL: cannot connect (${error.message})`);
    });
    try {
      server = `PostgreSQL ${(await client.query('show server_version')).rows[0].server_version}`;
    } finally {
      await client.end();
    }
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGB: round(os.totalmem() / 1024 ** 3),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    // Other work on the machine skews every figure; kept so a reader can tell a quiet run from a busy one.
    loadAverage1m: round(os.loadavg()[0]),
    // The URL itself may carry a password: only the kind and the server version are recorded.
    database: { mode: ctx.database, server: server ?? 'PGlite (embedded, worker thread)' },
  };
}

function judge(row: Row): RowResult {
  const ratio = row.reference && row.reference.value !== 0 ? round(row.value / row.reference.value, 3) : null;
  let verdict: RowResult['verdict'] = null;
  if (row.bar) {
    const measured = row.bar.of === 'ratio' ? ratio : row.value;
    verdict = measured !== null && meets(measured, row.bar) ? 'pass' : 'FAIL';
  }
  return { ...row, value: round(row.value), ratio, verdict };
}

function meets(measured: number, bar: Bar): boolean {
  return bar.op === '>=' ? measured >= bar.target : measured <= bar.target;
}

function formatTable(results: BenchResult[]): string {
  const header = ['benchmark', 'metric', 'value', 'unit', 'reference', 'ratio', 'bar', 'verdict'];
  const lines: string[][] = [];
  for (const result of results) {
    if (result.error) {
      lines.push([result.name, 'error', '', '', '', '', '', result.error.split('\n')[0]]);
      continue;
    }
    for (const row of result.rows) {
      lines.push([
        result.name,
        row.metric,
        formatNumber(row.value),
        row.unit,
        row.reference ? `${formatNumber(row.reference.value)} (${row.reference.label})` : '',
        row.ratio === null ? '' : `${formatNumber(row.ratio)}×`,
        row.bar ? formatBar(row.bar, row.unit) : '',
        row.verdict ?? '',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const numeric = new Set([2, 5]);
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

function formatBar(bar: Bar, unit: string): string {
  const op = bar.op === '>=' ? '≥' : '≤';
  const target = bar.of === 'ratio' ? `${bar.target}× ref` : `${formatNumber(bar.target)} ${unit}`;
  return `${op} ${target} (${bar.source})`;
}

function formatNumber(n: number): string {
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
