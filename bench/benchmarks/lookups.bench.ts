import autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { createLedgerRepository } from '../../apps/server/src/modules/billing/ledger.repository.ts';
import { startHerald } from '../lib/herald.ts';
import { describeSamples, sampleIdle, sampleRows, startSampler } from '../lib/interactive-sampler.ts';
import {
  BENCH_LOOKUP_ENGINE,
  type FakeLookupProcess,
  startFakeLookupProcess,
  startLookupWorker,
} from '../lib/lookup-processes.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'lookups';
export const description =
  'BENCH_LOOKUPS (default 100,000) phones of one list looked up through a fake Twilio Lookup answering in 20 ms in its own process, rate limit off: claimed, charged, looked up, result written, per second (PostgreSQL: one and two worker processes); beside the fake’s ceiling from a bare client';

const BAR = 'issue 36: ≥ 50 % of the fake’s ceiling on PostgreSQL';
const SERVING_BAR = { target: 150, source: 'issue 36: /api/user and a leads page p99 ≤ 150 ms during lookups' };
const LATENCY_MS = 20;
/** The calls one worker process keeps in flight (lanes × concurrency): the bare client's connections. */
const IN_FLIGHT = BENCH_LOOKUP_ENGINE.lanes * BENCH_LOOKUP_ENGINE.concurrency;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const total = Number(process.env.BENCH_LOOKUPS ?? 100_000);
  const fake = await startFakeLookupProcess(LATENCY_MS);
  try {
    const postgres = ctx.database === 'postgres';
    const herald = await startHerald(ctx, postgres ? { HERALD_ROLE: 'api' } : {}, {
      lookupsEngine: BENCH_LOOKUP_ENGINE,
    });
    try {
      const db = herald.app.services.database.db as Kysely<DB>;
      const { token, teamId } = await herald.signUpOwner();
      const auth = { authorization: `Bearer ${token}` };
      const gateway = await herald.app.inject({
        method: 'POST',
        url: '/api/config/gateway/messaging',
        headers: auth,
        payload: {
          type: 'twilio',
          name: 'Lookup',
          allow_lookup: true,
          credentials: {
            sid: fake.account.sid,
            token: fake.account.token,
            from_twilio: '+15005550006',
            base_url: fake.url,
          },
        },
      });
      if (gateway.statusCode !== 201) throw new Error(`gateway answered ${gateway.statusCode}: ${gateway.body}`);
      const owner = await db.selectFrom('users').select('id').where('team_id', '=', teamId).executeTakeFirstOrThrow();
      const userId = Number(owner.id);
      await createLedgerRepository().credit(db, teamId, userId, [
        { type: 'top_up', amount: 1_000_000_000_000, key: 'bench-funds' },
      ]);
      const workerCounts = postgres ? [1, 2] : [0];
      ctx.log(`seeding ${workerCounts.length} list(s) of ${total.toLocaleString('en')} phones`);
      const lists = [];
      for (const w of workerCounts) lists.push(await seedList(db, teamId, total, w));
      if (postgres) await sql`analyze`.execute(db);
      ctx.log('sampling the idle app for 3 s');
      const idle = await sampleIdle(herald.url, auth);
      const rows: Row[] = [];
      for (const [i, workers] of workerCounts.entries()) {
        const ceiling = await measureCeiling(ctx, fake, workers === 0 ? IN_FLIGHT : IN_FLIGHT * workers);
        const label = workers === 0 ? 'one process' : `${workers} worker process${workers > 1 ? 'es' : ''}`;
        ctx.log(`fake ceiling: ${Math.round(ceiling)} lookups/s from a bare client`);
        await fake.reset();
        const started = await Promise.all(
          Array.from({ length: workers }, () => startLookupWorker(herald.env, herald.jobsSchema)),
        );
        try {
          const sampler = startSampler(herald.url, auth);
          const seconds = await lookupRun(herald.app, db, auth, lists[i]);
          const during = await sampler.stop();
          const rate = total / seconds;
          ctx.log(`${label}: ${total} phones in ${seconds.toFixed(1)} s (${Math.round(rate)}/s)`);
          ctx.log(`${label}: ${describeSamples(during, idle)}`);
          await verify(db, fake, { lookupId: lists[i].lookupId, userId, total });
          rows.push(
            {
              metric: `lookups/s, ${label} (${total.toLocaleString('en')} claimed, charged, looked up, result written)`,
              value: Math.round(rate),
              unit: '/s',
              reference: {
                value: Math.round(ceiling),
                label: `fake ceiling, bare client, ${IN_FLIGHT * Math.max(1, workers)} conn., ${LATENCY_MS} ms answers`,
              },
              ...(postgres ? { bar: { op: '>=', target: 0.5, of: 'ratio', source: BAR } as const } : {}),
            },
            ...sampleRows(`lookups, ${label}`, during, idle, SERVING_BAR),
          );
        } finally {
          await Promise.all(started.map((w) => w.close()));
        }
      }
      return rows;
    } finally {
      await herald.close();
    }
  } finally {
    await fake.close();
  }
}

/** A list of `total` leads with a unique phone each, written by SQL as an import leaves them, and its lookup (not started). */
async function seedList(db: Kysely<DB>, teamId: number, total: number, n: number) {
  const source = await sql<{
    id: string;
  }>`insert into sources (team_id, name) values (${teamId}, ${`Bench ${n}`}) returning id`.execute(db);
  const list = await sql<{ id: string }>`insert into lists (team_id, source_id, name)
    values (${teamId}, ${source.rows[0].id}, ${`Bench list ${n}`}) returning id`.execute(db);
  const listId = Number(list.rows[0].id);
  await sql`insert into leads (team_id, source_id, list_id, status)
    select ${teamId}, ${source.rows[0].id}, ${listId}, 'active' from generate_series(1, ${total}::int)`.execute(db);
  await sql`insert into lead_values (team_id, lead_id, attribute_id, type, value)
    select ${teamId}, l.id, a.id, 'phone', '+3806' || ${String(n)} || lpad((row_number() over (order by l.id))::text, 7, '0')
    from leads l, lead_attributes a where l.list_id = ${listId} and a.team_id = ${teamId} and a.slug = 'phone'`.execute(
    db,
  );
  return { listId, lookupId: 0 };
}

/** Starts the list's lookup through the API and waits until it completes; seconds on the database's clock. */
async function lookupRun(
  app: Awaited<ReturnType<typeof startHerald>>['app'],
  db: Kysely<DB>,
  auth: Record<string, string>,
  list: { listId: number; lookupId: number },
): Promise<number> {
  const t0 = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db);
  const res = await app.inject({
    method: 'POST',
    url: '/api/sources/lists/lookup',
    headers: auth,
    payload: { ids: [list.listId] },
  });
  if (res.statusCode !== 200) throw new Error(`lookup start answered ${res.statusCode}: ${res.body}`);
  list.lookupId = Number(res.json().lookups[0].id);
  for (;;) {
    const row = await sql<{ status: number; completed_at: Date | null }>`select status, completed_at from lookups
      where id = ${list.lookupId}`.execute(db);
    if (row.rows[0].completed_at) return (row.rows[0].completed_at.getTime() - t0.rows[0].at.getTime()) / 1000;
    if (Number(row.rows[0].status) !== 1) throw new Error(`the lookup stopped at status ${row.rows[0].status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The most lookups a second the fake answers: a bare autocannon client, keep-alive, same run. */
async function measureCeiling(ctx: BenchContext, fake: FakeLookupProcess, connections: number): Promise<number> {
  const run = (duration: number) =>
    autocannon({
      url: `${fake.url}/v2/PhoneNumbers/%2B380670000000?Fields=line_type_intelligence`,
      connections,
      duration,
      workers: 1,
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.account.sid}:${fake.account.token}`).toString('base64')}`,
      },
    });
  await run(Math.min(3, Math.max(1, Math.round(ctx.durationSeconds / 5))));
  const result = await run(ctx.durationSeconds);
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error('the fake lookup failed requests');
  return result.requests.average;
}

/** Every phone looked up once with one result and one charge; the balance equal to its ledger. */
async function verify(db: Kysely<DB>, fake: FakeLookupProcess, o: { lookupId: number; userId: number; total: number }) {
  const lookup = await sql<{
    looked_up: number;
    phones: number;
  }>`select looked_up, phones from lookups where id = ${o.lookupId}`.execute(db);
  if (Number(lookup.rows[0].looked_up) !== o.total)
    throw new Error(`looked up ${lookup.rows[0].looked_up} of ${o.total}`);
  const counts = await fake.counts();
  if (counts.phones !== o.total || counts.repeated > 0)
    throw new Error(
      `the fake was asked ${counts.phones} phones (${counts.repeated} more than once), not ${o.total} once each`,
    );
  const ledger = await sql<{ charges: string; balance: string; sum: string }>`
    select (select count(*) from transactions where user_id = ${o.userId} and type = 'lookup'
              and meta->>'lookup_id' = ${String(o.lookupId)}) as charges,
           (select balance from users where id = ${o.userId}) as balance,
           (select sum(amount) from transactions where user_id = ${o.userId}) as sum`.execute(db);
  const { charges, balance, sum } = ledger.rows[0];
  if (Number(charges) !== o.total) throw new Error(`${charges} charges for ${o.total} phones`);
  if (Number(balance) !== Number(sum)) throw new Error(`balance ${balance} but ledger sum ${sum}`);
}
