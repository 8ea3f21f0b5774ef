import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { startHerald } from '../lib/herald.ts';
import { pacedLoad } from '../lib/paced-load.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'redirects';
export const description =
  'GET /{code} short-link redirects (lookup, 302, click recorded) at 1,000 req/s vs a bare Fastify 302, same rate';

const RATE = 1_000;
const CONNECTIONS = 50;
/** Distinct links the load cycles through: each gets its first human click, then later ones. */
const LINKS = 500;
const BAR = 'DESIGN §5 / issue 23: redirect p99 ≤ 50 ms at 1,000 req/s';
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

interface Result {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  failures: number;
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const ref = await driveBare(ctx);
  const app = await driveHerald(ctx);
  const label = 'bare Fastify 302';
  return [
    {
      metric: 'latency p99',
      value: app.latencyP99Ms,
      unit: 'ms',
      reference: { value: ref.latencyP99Ms, label },
      bar: { op: '<=', target: 50, of: 'value', source: BAR },
    },
    { metric: 'latency p50', value: app.latencyP50Ms, unit: 'ms', reference: { value: ref.latencyP50Ms, label } },
    {
      metric: 'throughput',
      value: app.requestsPerSecond,
      unit: 'req/s',
      reference: { value: ref.requestsPerSecond, label },
      bar: { op: '>=', target: RATE * 0.95, of: 'value', source: 'the offered 1,000 req/s must be served' },
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

/**
 * A fixed overall rate from a separate process (`paced-load.ts`), each request timed from when the
 * schedule sent it. A 302 is the success here; anything else, errors and missing answers are
 * failures. Requests walk the list of paths in turn, so every link is hit many times. An
 * unmeasured run first warms the JIT, the connections and the link cache.
 */
async function drive(base: string, paths: string[], ctx: BenchContext): Promise<Result> {
  const run = (seconds: number) =>
    pacedLoad({
      base,
      paths,
      rate: RATE,
      connections: CONNECTIONS,
      seconds,
      headers: { 'user-agent': BROWSER },
      expectStatus: 302,
    });
  await run(Math.min(3, Math.max(1, Math.round(ctx.durationSeconds / 5))));
  const r = await run(ctx.durationSeconds);
  return {
    requestsPerSecond: r.requestsPerSecond,
    latencyP50Ms: r.latencyP50Ms,
    latencyP99Ms: r.latencyP99Ms,
    failures: r.failures,
  };
}

async function driveBare(ctx: BenchContext): Promise<Result> {
  const bare = Fastify({ logger: false });
  bare.get('/:code', async (_req, reply) => reply.redirect('https://shop.example/sale', 302));
  try {
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    ctx.log(`driving bare Fastify 302 at ${RATE} req/s for ${ctx.durationSeconds} s`);
    return await drive(base, ['/aB3dE5g'], ctx);
  } finally {
    await bare.close();
  }
}

async function driveHerald(ctx: BenchContext): Promise<Result> {
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx, { APP_URL: 'http://127.0.0.1' });
  try {
    const { teamId } = await herald.signUpOwner();
    const db = herald.app.services.database.db;
    // The links' host is the one the load names (127.0.0.1:<port>), as a team's domain would be.
    // Links as a campaign makes them, made long enough ago that a click is a person's.
    const codes: string[] = [];
    for (let i = 0; i < LINKS; i++) codes.push(`Bn${String(i).padStart(5, '0')}`);
    await db
      .insertInto('short_links')
      .values(
        codes.map((code) => ({
          team_id: teamId,
          lead_id: null,
          message_id: null,
          kind: 'link' as const,
          host: new URL(herald.url).host,
          code,
          redirect_to: 'https://shop.example/sale',
          phone: null,
          created_at: sql<Date>`now() - interval '1 hour'`,
        })),
      )
      .execute();
    const probe = await fetch(`${herald.url}/${codes[0]}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
    if (probe.status !== 302) throw new Error(`redirect answered ${probe.status}: ${await probe.text()}`);
    ctx.log(`driving Herald GET /{code} at ${RATE} req/s for ${ctx.durationSeconds} s over ${LINKS} links`);
    const result = await drive(
      herald.url,
      codes.map((c) => `/${c}`),
      ctx,
    );
    const clicked = await db
      .selectFrom('short_links')
      .select((eb) => eb.fn.sum<number>('human_clicks').as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    ctx.log(`human clicks recorded: ${clicked?.n}`);
    return result;
  } finally {
    await herald.close();
  }
}
