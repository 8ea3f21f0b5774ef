import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { campaignLinks, checkClicks, startLookupServer, TARGET } from '../lib/cold-links.ts';
import { startFakeTwilioProcess } from '../lib/fake-twilio-process.ts';
import { startHerald } from '../lib/herald.ts';
import { pacedLoad } from '../lib/paced-load.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'redirects';
export const description =
  "GET /{code} short-link redirects at 1,000 req/s: warm (500 links cycled) vs a bare Fastify 302, and cold (every request a campaign link's first click) vs a bare lookup-and-302 on the same database";

const RATE = 1_000;
const CONNECTIONS = 50;
/** Distinct links the warm load cycles through: each gets its first human click, then later ones. */
const LINKS = 500;
/** The app's host (APP_URL): the host every link of a team without a domain is made on, and the one the load names. */
const APP_HOST = '127.0.0.1';
const BAR = 'DESIGN §5 / issue 23: redirect p99 ≤ 50 ms at 1,000 req/s';
const COLD_BAR = "issue 35: p99 ≤ 50 ms at 1,000 req/s, every request a link's first click";
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

interface Result {
  /** CPU time of this process (the server, and the embedded database's worker) per measured request. */
  cpuMsPerRequest: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  failures: number;
}

/** `BENCH_REDIRECTS=warm` or `cold` runs one case only; both by default. */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const only = process.env.BENCH_REDIRECTS;
  const out: Row[] = [];
  if (only !== 'cold') out.push(...rows('', await driveHerald(ctx), await driveBare(ctx), 'bare Fastify 302', BAR));
  if (only === 'warm') return out;
  const cold = await driveCold(ctx);
  return [
    ...out,
    ...rows('cold ', cold.app, cold.ref, 'bare lookup-and-302, same database', COLD_BAR),
    {
      metric: 'cold: links counted exactly once (of those requested)',
      value: cold.check.countedOnce,
      unit: 'links',
      bar: { op: '>=', target: cold.requested, of: 'value', source: 'every click counted, once' },
    },
    {
      metric: 'cold: leads marked engaged (phone clicked, Timeline entry)',
      value: Math.min(cold.check.engaged, cold.check.timeline),
      unit: 'leads',
      bar: { op: '>=', target: cold.requested, of: 'value', source: "a link's first human click is engagement" },
    },
    { metric: 'cold: clicks written, seconds after the last answer', value: cold.check.drainSeconds, unit: 's' },
  ];
}

function rows(prefix: string, app: Result, ref: Result, label: string, bar: string): Row[] {
  return [
    {
      metric: `${prefix}latency p99`,
      value: app.latencyP99Ms,
      unit: 'ms',
      reference: { value: ref.latencyP99Ms, label },
      bar: { op: '<=', target: 50, of: 'value', source: bar },
    },
    {
      metric: `${prefix}latency p50`,
      value: app.latencyP50Ms,
      unit: 'ms',
      reference: { value: ref.latencyP50Ms, label },
    },
    {
      metric: `${prefix}throughput`,
      value: app.requestsPerSecond,
      unit: 'req/s',
      reference: { value: ref.requestsPerSecond, label },
      bar: { op: '>=', target: RATE * 0.95, of: 'value', source: 'the offered 1,000 req/s must be served' },
    },
    {
      metric: `${prefix}failed requests`,
      value: app.failures,
      unit: 'req',
      reference: { value: ref.failures, label },
      bar: { op: '<=', target: 0, of: 'value', source: 'else the run is void' },
    },
    {
      // What the machine's other work cannot skew: this process's CPU time per request.
      metric: `${prefix}CPU per request (server process)`,
      value: app.cpuMsPerRequest,
      unit: 'ms',
      reference: { value: ref.cpuMsPerRequest, label },
    },
  ];
}

const warmUpSeconds = (ctx: BenchContext) => Math.min(3, Math.max(1, Math.round(ctx.durationSeconds / 5)));

/**
 * A fixed overall rate from a separate process (`paced-load.ts`), each request timed from when the
 * schedule sent it. A 302 is the success here; anything else, errors and missing answers are
 * failures. Requests walk the list of paths in turn. An unmeasured run first warms the JIT and the
 * connections (and, warm, the link cache); cold, it takes paths of its own, so no measured request
 * names a code asked before.
 */
async function drive(base: string, paths: string[], ctx: BenchContext, cold = false): Promise<Result> {
  const warm = warmUpSeconds(ctx);
  const run = (seconds: number, list: string[]) =>
    pacedLoad({
      base,
      paths: list,
      rate: RATE,
      connections: CONNECTIONS,
      seconds,
      headers: { 'user-agent': BROWSER, host: APP_HOST },
      expectStatus: 302,
    });
  const split = cold ? RATE * warm : 0;
  await run(warm, cold ? paths.slice(0, split) : paths);
  const cpu = process.cpuUsage();
  const r = await run(ctx.durationSeconds, cold ? paths.slice(split, split + RATE * ctx.durationSeconds) : paths);
  const used = process.cpuUsage(cpu);
  return {
    cpuMsPerRequest: Number(((used.user + used.system) / 1000 / Math.max(1, r.requests)).toFixed(3)),
    requests: r.requests,
    requestsPerSecond: r.requestsPerSecond,
    latencyP50Ms: r.latencyP50Ms,
    latencyP99Ms: r.latencyP99Ms,
    failures: r.failures,
  };
}

async function driveBare(ctx: BenchContext): Promise<Result> {
  const bare = Fastify({ logger: false });
  bare.get('/:code', async (_req, reply) => reply.redirect(TARGET, 302));
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
  const herald = await startHerald(ctx, { APP_URL: `http://${APP_HOST}` });
  try {
    const { teamId } = await herald.signUpOwner();
    const db = herald.app.services.database.db;
    // On the app's host, made long enough ago that a click is a person's.
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
          host: APP_HOST,
          code,
          redirect_to: TARGET,
          phone: null,
          created_at: sql<Date>`now() - interval '1 hour'`,
        })),
      )
      .execute();
    await probe(herald.url, codes[0]);
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

/** One request as the load sends it (fetch would not send our Host header). */
function probe(base: string, code: string): Promise<void> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: url.hostname, port: url.port, path: `/${code}`, headers: { 'user-agent': 'curl/8', host: APP_HOST } },
        (res) => {
          res.resume();
          if (res.statusCode === 302) resolve();
          else reject(new Error(`redirect answered ${res.statusCode}`));
        },
      )
      .on('error', reject);
  });
}

/**
 * Every request a link's first click: a campaign's links, fresh codes all through (warm-up
 * included), on the app and on a bare lookup-and-302 over the same database handle; then every
 * click of the app's run must be counted once and its lead marked engaged.
 */
async function driveCold(ctx: BenchContext) {
  const perRun = RATE * (warmUpSeconds(ctx) + ctx.durationSeconds);
  const fake = await startFakeTwilioProcess();
  ctx.log(`starting Herald (${ctx.database}) for cold clicks`);
  const herald = await startHerald(ctx, { APP_URL: `http://${APP_HOST}` });
  try {
    // One run on the bare server and one on the app, a code never asked twice (BENCH_DURATION=30: 66,000 links).
    const made = await campaignLinks(herald, fake, 2 * perRun, !!ctx.databaseUrl, ctx.log);
    const paths = made.codes.map((c) => `/${c}`);
    const bare = await startLookupServer(made.db);
    let ref: Result;
    try {
      ctx.log(`driving the bare lookup-and-302 at ${RATE} req/s for ${ctx.durationSeconds} s, each code once`);
      ref = await drive(bare.url, paths.slice(0, perRun), ctx, true);
    } finally {
      await bare.app.close();
    }
    const mine = paths.slice(perRun, 2 * perRun);
    ctx.log(`driving Herald GET /{code} at ${RATE} req/s for ${ctx.durationSeconds} s, each code once`);
    const app = await drive(herald.url, mine, ctx, true);
    const check = await checkClicks(
      made.db,
      made.teamId,
      mine.map((p) => p.slice(1)),
      120_000,
    );
    ctx.log(`cold clicks: ${JSON.stringify(check)} of ${mine.length} requested`);
    return { app, ref, check, requested: mine.length };
  } finally {
    await herald.close();
    await fake.close();
  }
}
