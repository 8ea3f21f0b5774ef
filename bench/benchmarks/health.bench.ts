import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { startHerald } from '../lib/herald.ts';
import { drive, type LoadOptions, type LoadResult } from '../lib/load.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'health';
export const description =
  'GET /api/health on the real app (database ping included) vs a bare Fastify GET /health, 50 connections';

const CONNECTIONS = 50;
// DESIGN §5 has no bar for health; it is the cheapest route through the whole stack (helmet, zod
// serializer, database ping), so it is the ceiling for every API route and must clear the api bar.
const API_BAR = 'api bar, DESIGN §5';

export async function run(ctx: BenchContext): Promise<Row[]> {
  const load = {
    connections: CONNECTIONS,
    durationSeconds: ctx.durationSeconds,
    warmupSeconds: Math.min(3, Math.max(1, Math.round(ctx.durationSeconds / 5))),
  };
  // One server at a time in this process, so neither measurement pays for the other's timers.
  const ref = await driveBareFastify(ctx, load);
  const app = await driveHerald(ctx, load);
  return rows(app, ref);
}

async function driveBareFastify(ctx: BenchContext, load: LoadOptions): Promise<LoadResult> {
  // Same JSON shape, nothing behind it: what Fastify and the loopback cost on this machine.
  const bare = Fastify({ logger: false });
  bare.get('/health', async () => ({
    status: 'ok',
    database: 'ok',
    jobs: 'ok',
    mode: ctx.database,
    uptime_s: Math.round(process.uptime()),
  }));
  try {
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/health`;
    ctx.log(`driving bare Fastify GET /health for ${load.warmupSeconds}+${load.durationSeconds} s`);
    return await drive(url, load);
  } finally {
    await bare.close();
  }
}

async function driveHerald(ctx: BenchContext, load: LoadOptions): Promise<LoadResult> {
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx);
  try {
    const url = `${herald.url}/api/health`;
    const probe = await fetch(url);
    if (probe.status !== 200) throw new Error(`Herald health answered ${probe.status}: ${await probe.text()}`);
    ctx.log(`driving Herald GET /api/health for ${load.warmupSeconds}+${load.durationSeconds} s`);
    return await drive(url, load);
  } finally {
    await herald.close();
  }
}

function rows(app: LoadResult, ref: LoadResult): Row[] {
  const label = 'bare Fastify';
  return [
    {
      metric: 'throughput',
      value: app.requestsPerSecond,
      unit: 'req/s',
      reference: { value: ref.requestsPerSecond, label },
      bar: { op: '>=', target: 1000, of: 'value', source: API_BAR },
    },
    {
      metric: 'latency p99',
      value: app.latencyP99Ms,
      unit: 'ms',
      reference: { value: ref.latencyP99Ms, label },
      bar: { op: '<=', target: 100, of: 'value', source: API_BAR },
    },
    {
      metric: 'latency p50',
      value: app.latencyP50Ms,
      unit: 'ms',
      reference: { value: ref.latencyP50Ms, label },
    },
    {
      metric: 'failed requests',
      value: app.failures,
      unit: 'req',
      reference: { value: ref.failures, label },
      bar: { op: '<=', target: 0, of: 'value', source: 'else the run is void' },
    },
  ];
}
