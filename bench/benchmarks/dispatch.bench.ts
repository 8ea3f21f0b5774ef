import autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { createLedgerRepository } from '../../apps/server/src/modules/billing/ledger.repository.ts';
import { twilioGatewayBody } from '../../apps/server/test/support/gateways.ts';
import { startDispatchWorker } from '../lib/dispatch-worker.ts';
import { type FakeTwilioProcess, startFakeTwilioProcess } from '../lib/fake-twilio-process.ts';
import { startHerald } from '../lib/herald.ts';
import {
  describeSamples,
  type LatencyStats,
  sampleIdle,
  sampleRows,
  startSampler,
} from '../lib/interactive-sampler.ts';
import { seedLeads } from '../lib/leads-seeder.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'dispatch';
export const description =
  'BENCH_DISPATCH (default 50,000) pending messages sent through a fake Twilio in its own process, rates off: claimed, charged, sent and answer written, per second (PostgreSQL: one and two worker processes); beside the fake’s ceiling from a bare client';

const BAR = 'issue 31: ≥ 50 % of the fake’s ceiling on PostgreSQL, ≥ 25 % embedded';
const SERVING_BAR = { target: 150, source: 'issue 31: /api/user and a leads page p99 ≤ 150 ms during dispatch' };
/** Connections of the bare client: the calls two worker processes keep in flight (16 each). */
const CEILING_CONNECTIONS = 32;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const total = Number(process.env.BENCH_DISPATCH ?? 50_000);
  const fake = await startFakeTwilioProcess();
  try {
    const ceiling = await measureCeiling(ctx, fake);
    ctx.log(
      `fake Twilio ceiling: ${Math.round(ceiling)} creates/s from a bare client (${CEILING_CONNECTIONS} connections)`,
    );
    const postgres = ctx.database === 'postgres';
    // PostgreSQL: the app serves HTTP only (HERALD_ROLE=api) and worker processes send, as deployed
    // to scale out. Embedded: one process does both, the only way it runs.
    const herald = await startHerald(ctx, postgres ? { HERALD_ROLE: 'api' } : {}, { messagesEngine: { rates: false } });
    try {
      const db = herald.app.services.database.db as Kysely<DB>;
      const { token, teamId } = await herald.signUpOwner();
      const auth = { authorization: `Bearer ${token}` };
      const gateway = await herald.app.inject({
        method: 'POST',
        url: '/api/config/gateway/messaging',
        headers: auth,
        payload: twilioGatewayBody(fake),
      });
      if (gateway.statusCode !== 201) throw new Error(`gateway answered ${gateway.statusCode}: ${gateway.body}`);
      const gatewayId = Number(gateway.json().id);
      const owner = await db.selectFrom('users').select('id').where('team_id', '=', teamId).executeTakeFirstOrThrow();
      const userId = Number(owner.id);
      // Money for every message of every run, so no charge is refused.
      await createLedgerRepository().credit(db, teamId, userId, [
        { type: 'top_up', amount: 1_000_000_000_000, key: 'bench-funds' },
      ]);
      ctx.log(`seeding ${total.toLocaleString('en')} leads (the leads page sampled meanwhile reads them)`);
      await seedLeads(db, { teamId, leads: total, vacuum: postgres });

      ctx.log('sampling the idle app for 3 s');
      const idle = await sampleIdle(herald.url, auth);
      const rows: Row[] = [];
      for (const workers of postgres ? [1, 2] : [0]) {
        const label = workers === 0 ? 'one process' : `${workers} worker process${workers > 1 ? 'es' : ''}`;
        const started = await Promise.all(
          Array.from({ length: workers }, () => startDispatchWorker(herald.env, herald.jobsSchema)),
        );
        try {
          const prefix = `bench-${workers}w`;
          ctx.log(`${label}: queueing ${total.toLocaleString('en')} messages`);
          const sampler = startSampler(herald.url, auth);
          const result = await dispatchRun(db, { teamId, userId, gatewayId, total, prefix });
          const during = await sampler.stop();
          const rate = total / result.seconds;
          ctx.log(`${label}: ${total} answered in ${result.seconds.toFixed(1)} s (${Math.round(rate)}/s)`);
          ctx.log(`${label}: ${describeSamples(during, idle)}`);
          await verify(db, fake, { teamId, userId, total, prefix });
          rows.push(...figures(ctx, label, rate, ceiling, total, during, idle));
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

/** The most creates a second the fake takes: a bare autocannon client, keep-alive, same run. */
async function measureCeiling(ctx: BenchContext, fake: FakeTwilioProcess): Promise<number> {
  const url = `${fake.url}/2010-04-01/Accounts/${fake.account.sid}/Messages.json`;
  const run = (duration: number) =>
    autocannon({
      url,
      method: 'POST',
      connections: CEILING_CONNECTIONS,
      duration,
      workers: 1,
      headers: {
        authorization: `Basic ${Buffer.from(`${fake.account.sid}:${fake.account.token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: '+380670000000', From: '+15005550006', Body: 'ceiling' }).toString(),
    });
  await run(Math.min(3, Math.max(1, Math.round(ctx.durationSeconds / 5))));
  const result = await run(ctx.durationSeconds);
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error('the fake Twilio failed requests');
  return result.requests.average;
}

/**
 * Queues `total` rendered rows as pending in one statement (a campaign step's insert) and waits
 * until every one has its answer written. The time runs on the database's clock: from the insert's
 * commit to the last row's settle (its `updated_at`).
 */
async function dispatchRun(
  db: Kysely<DB>,
  o: { teamId: number; userId: number; gatewayId: number; total: number; prefix: string },
): Promise<{ seconds: number }> {
  const queued = await sql<{ first: string; last: string }>`
    with leads_in_order as (
      select id, row_number() over (order by id) as n from leads where team_id = ${o.teamId}
    ), inserted as (
      insert into messages (team_id, user_id, lead_id, kind, phone, gateway_id, sender, text, parts, encoding,
        price, charge_key, state, not_before)
      select ${o.teamId}, ${o.userId}, l.id, 'campaign_step', '+38067' || lpad(g::text, 7, '0'), ${o.gatewayId},
        null, ${o.prefix} || ' sale today ' || g, 1, 'GSM-7', 0, ${o.prefix} || '-' || g, 'pending', now()
      from generate_series(1, ${o.total}::int) g left join leads_in_order l on l.n = g
      returning id
    )
    select min(id) as first, max(id) as last from inserted`.execute(db);
  const { first, last } = queued.rows[0];
  const t0 = await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db);
  for (;;) {
    const left = await sql<{ n: string }>`
      select count(*) as n from messages
      where id between ${first} and ${last} and state in ('pending', 'claimed')`.execute(db);
    if (Number(left.rows[0].n) === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const end = await sql<{ at: Date }>`
    select max(updated_at) as at from messages where id between ${first} and ${last}`.execute(db);
  return { seconds: (end.rows[0].at.getTime() - t0.rows[0].at.getTime()) / 1000 };
}

/** Every message sent once and answered, one charge each, the balance equal to its ledger. */
async function verify(
  db: Kysely<DB>,
  fake: FakeTwilioProcess,
  o: { teamId: number; userId: number; total: number; prefix: string },
) {
  const states = await sql<{ state: string; n: string }>`
    select state, count(*) as n from messages
    where team_id = ${o.teamId} and charge_key like ${`${o.prefix}-%`} group by state`.execute(db);
  const submitted = Number(states.rows.find((r) => r.state === 'submitted')?.n ?? 0);
  if (submitted !== o.total) throw new Error(`rows ended ${JSON.stringify(states.rows)}, not all submitted`);
  const taken = await fake.counts(o.prefix);
  if (taken.taken !== o.total || taken.repeated > 0)
    throw new Error(`the fake took ${taken.taken} messages (${taken.repeated} twice), not ${o.total} once each`);
  const ledger = await sql<{ charges: string; balance: string; sum: string }>`
    select (select count(*) from transactions where user_id = ${o.userId}
              and idempotency_key like ${`%${o.prefix}-%`}) as charges,
           (select balance from users where id = ${o.userId}) as balance,
           (select sum(amount) from transactions where user_id = ${o.userId}) as sum`.execute(db);
  const { charges, balance, sum } = ledger.rows[0];
  if (Number(charges) !== o.total) throw new Error(`${charges} charges for ${o.total} messages`);
  if (Number(balance) !== Number(sum)) throw new Error(`balance ${balance} but ledger sum ${sum}`);
}

function figures(
  ctx: BenchContext,
  label: string,
  rate: number,
  ceiling: number,
  total: number,
  during: LatencyStats[],
  idle: LatencyStats[],
): Row[] {
  const postgres = ctx.database === 'postgres';
  return [
    {
      metric: `messages/s, ${label} (${total.toLocaleString('en')} claimed, charged, sent, answer written)`,
      value: Math.round(rate),
      unit: '/s',
      reference: {
        value: Math.round(ceiling),
        label: `fake Twilio ceiling, bare client, ${CEILING_CONNECTIONS} conn.`,
      },
      bar: { op: '>=', target: postgres ? 0.5 : 0.25, of: 'ratio', source: BAR },
    },
    ...sampleRows(`dispatch, ${label}`, during, idle, SERVING_BAR),
  ];
}
