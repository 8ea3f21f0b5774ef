import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { startHerald } from '../lib/herald.ts';
import { seedLeads } from '../lib/leads-seeder.ts';
import { drive } from '../lib/load.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'leads';
export const description =
  'the lead database at BENCH_LEADS leads (default 1,000,000): leads page under 50 clients, search, sources with counts; each beside its bare SQL';

const CONNECTIONS = 50;
const SAMPLES = 30;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timed(fn: () => Promise<unknown>, samples = SAMPLES): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const count = Number(process.env.BENCH_LEADS ?? 1_000_000);
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx);
  try {
    const { app, url } = herald;
    const db = app.services.database.db as Kysely<DB>;
    const { token, teamId } = await herald.signUpOwner();
    const headers = { authorization: `Bearer ${token}` };

    ctx.log(`seeding ${count.toLocaleString('en')} leads`);
    const seedStarted = performance.now();
    await seedLeads(db, { teamId, leads: count });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    ctx.log(`seeded in ${seedSeconds.toFixed(1)} s`);

    const get = (path: string) =>
      fetch(`${url}${path}`, { headers }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
        return r.json();
      });

    // 1. First page of /api/leads, newest first, under load; the bare SQL is the same two queries.
    await get('/api/leads?limit=50');
    const load = await drive(`${url}/api/leads?limit=50`, {
      connections: CONNECTIONS,
      durationSeconds: ctx.durationSeconds,
      warmupSeconds: 2,
      headers,
    });
    const pageSql = await timed(async () => {
      const ids = await sql<{
        id: number;
      }>`select id from leads where team_id = ${teamId} order by id desc limit 50`.execute(db);
      await sql`select v.*, a.name from lead_values v join lead_attributes a on a.id = v.attribute_id
        where v.team_id = ${teamId} and v.lead_id = any(${ids.rows.map((r) => r.id)}::bigint[])`.execute(db);
    });

    // 2. Search by a phone fragment and by an e-mail fragment (different each time: no cache).
    let n = 0;
    const fragment = () => String(1_000_000 + ((n++ * 7919) % 900_000)).slice(1, 7);
    const searchApi = await timed(() => get(`/api/leads?limit=50&search=${fragment()}`));
    const searchSql = await timed(async () => {
      const pattern = `%${fragment()}%`;
      await sql`select id from leads where team_id = ${teamId} and id in
        (select lead_id from lead_values where team_id = ${teamId} and value ilike ${pattern}) order by id desc limit 50`.execute(
        db,
      );
      await sql`select count(*) from leads where team_id = ${teamId} and id in
        (select lead_id from lead_values where team_id = ${teamId} and value ilike ${pattern})`.execute(db);
    });
    const emailApi = await timed(() => get(`/api/leads?limit=50&search=lead${100 + (n++ % 800)}17@`));

    // 3. /sources with its counts: cold (the team's data changed since) and cached.
    const bump = () => sql`update teams set data_version = data_version + 1 where id = ${teamId}`.execute(db);
    const sourcesCold = await timed(async () => {
      await bump();
      await get('/api/sources?limit=50');
    }, 10);
    const sourcesWarm = await timed(() => get('/api/sources?limit=50'));
    // What the app runs: sums of the per-list, per-day tallies; and the full scan it replaces.
    const sourcesSql = await timed(
      () =>
        sql`select source_id, sum(total), sum(total) filter (where day = (now() at time zone 'UTC')::date),
        sum(total) filter (where day > (now() at time zone 'UTC')::date - 30), sum(duplicate), sum(flagged), sum(blacklisted)
        from lead_counts where team_id = ${teamId} group by source_id`.execute(db),
      10,
    );
    const sourcesScan = await timed(
      () =>
        sql`select source_id, count(*), count(*) filter (where created_at >= date_trunc('day', now())),
        count(*) filter (where created_at >= now() - interval '30 days'), count(*) filter (where duplicates > 0),
        count(*) filter (where status = 'flagged'), count(*) filter (where status = 'blacklisted')
        from leads where team_id = ${teamId} group by source_id`.execute(db),
      5,
    );

    const onPg = ctx.database === 'postgres';
    const bare = 'bare SQL';
    return [
      { metric: 'seed 1M leads', value: seedSeconds, unit: 's' },
      {
        metric: 'GET /api/leads page 1 throughput',
        value: load.requestsPerSecond,
        unit: 'req/s',
        ...(onPg ? { bar: { op: '>=', target: 1000, of: 'value', source: 'issue 4 / DESIGN api' } as const } : {}),
      },
      {
        metric: 'GET /api/leads page 1 p99',
        value: load.latencyP99Ms,
        unit: 'ms',
        reference: { value: pageSql, label: `${bare} p50` },
        ...(onPg ? { bar: { op: '<=', target: 100, of: 'value', source: 'issue 4 / DESIGN api' } as const } : {}),
      },
      {
        metric: 'GET /api/leads failed requests',
        value: load.failures,
        unit: 'req',
        bar: { op: '<=', target: 0, of: 'value', source: 'else void' },
      },
      {
        metric: 'search phone fragment p50',
        value: searchApi,
        unit: 'ms',
        reference: { value: searchSql, label: bare },
        ...(onPg ? { bar: { op: '<=', target: 100, of: 'value', source: 'issue 4' } as const } : {}),
      },
      {
        metric: 'search e-mail fragment p50',
        value: emailApi,
        unit: 'ms',
        reference: { value: searchSql, label: `${bare} (phone)` },
      },
      {
        metric: '/api/sources with counts p50 (cold)',
        value: sourcesCold,
        unit: 'ms',
        reference: { value: sourcesSql, label: bare },
        ...(onPg ? { bar: { op: '<=', target: 200, of: 'value', source: 'issue 4' } as const } : {}),
      },
      {
        metric: '/api/sources with counts p50 (cached)',
        value: sourcesWarm,
        unit: 'ms',
        reference: { value: sourcesSql, label: bare },
      },
    ];
  } finally {
    await herald.close();
  }
}
