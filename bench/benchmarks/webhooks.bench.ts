import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { twilioSignature } from '../../apps/server/src/modules/gateways/adapters/twilio.ts';
import { describeSamples, sampleIdle, sampleRows, startSampler } from '../lib/interactive-sampler.ts';
import { seedLeads } from '../lib/leads-seeder.ts';
import type { BenchContext, Row } from '../lib/types.ts';
import { startHerald } from '../lib/herald.ts';
import { type Callback, postCallbacks } from '../lib/webhook-poster.ts';

export const name = 'webhooks';
export const description =
  'BENCH_WEBHOOKS (default 20,000) messages, each reported sent then delivered by signed Twilio status callbacks over 50 connections; beside a bare Fastify POST doing one UPDATE per report on the same database';

const CONNECTIONS = 50;
/** The public origin providers call back: what Twilio signs, whatever port the app listens on. */
const APP_URL = 'https://herald.bench.example';
const SID = `AC${'0'.repeat(32)}`;
const TOKEN = 'bench-auth-token-0123456789abcdef';
const BAR = 'issue 23: ≥ 2,000 reports/s on PostgreSQL, ≥ 500 embedded';
const SERVING_BAR = { target: 100, source: 'issue 23: other requests p99 ≤ 100 ms during webhook ingest' };

export async function run(ctx: BenchContext): Promise<Row[]> {
  const total = Number(process.env.BENCH_WEBHOOKS ?? 20_000);
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx, { APP_URL });
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
        name: 'Twilio',
        // Never called: the messages are written as sent, only their callbacks arrive.
        credentials: { sid: SID, token: TOKEN, from_twilio: '+15005550006', base_url: 'http://127.0.0.1:9' },
      },
    });
    if (gateway.statusCode !== 201) throw new Error(`gateway answered ${gateway.statusCode}: ${gateway.body}`);
    const gatewayId = Number(gateway.json().id);

    // Each message has its lead (a campaign's do), so every report also writes that lead's Timeline.
    ctx.log(`seeding ${total.toLocaleString('en')} leads and one submitted message each`);
    await seedLeads(db, { teamId, leads: total, vacuum: ctx.database === 'postgres' });
    const messages = await sql<{ sid: string; phone: string }>`
      insert into messages (team_id, user_id, lead_id, kind, phone, gateway_id, text, parts, encoding, price,
        charge_key, state, status, provider_message_id, submitted_at)
      select ${teamId}, (select id from users where team_id = ${teamId} limit 1), v.lead_id, 'single', v.value,
        ${gatewayId}, 'Sale today', 1, 'GSM-7', 1, 'bench-' || v.lead_id, 'submitted', 'queued',
        'SM' || md5(v.lead_id::text), now()
      from (select distinct on (lead_id) lead_id, value from lead_values
            where team_id = ${teamId} and type = 'phone' order by lead_id, id) v
      returning provider_message_id as sid, phone`.execute(db);
    if (messages.rows.length !== total) throw new Error(`seeded ${messages.rows.length} messages, not ${total}`);
    await sql`analyze messages`.execute(db);

    // What Twilio posts: the form fields of a status callback, signed over the public URL.
    const path = `/api/webhooks/gateways/${gatewayId}/status`;
    const callback = (sid: string, to: string, status: string): Callback => {
      const params = {
        MessageSid: sid,
        SmsSid: sid,
        MessageStatus: status,
        SmsStatus: status,
        AccountSid: SID,
        From: '+15005550006',
        To: to,
        ApiVersion: '2010-04-01',
      };
      return {
        path,
        body: new URLSearchParams(params).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(TOKEN, `${APP_URL}${path}`, params),
        },
      };
    };
    const sequences = messages.rows.map((m) => [
      callback(m.sid, m.phone, 'sent'),
      callback(m.sid, m.phone, 'delivered'),
    ]);

    const reference = await bareReference(ctx, db, sequences);

    ctx.log('sampling the idle app for 3 s');
    const idle = await sampleIdle(herald.url, auth);
    ctx.log(`posting ${(total * 2).toLocaleString('en')} status callbacks over ${CONNECTIONS} connections`);
    const sampler = startSampler(herald.url, auth);
    // BENCH_WEBHOOKS_RATE: a steady stream at that many reports/s, to see other requests at a given
    // rate (the bar's own, say) rather than at the most the app takes.
    const pace = process.env.BENCH_WEBHOOKS_RATE ? Number(process.env.BENCH_WEBHOOKS_RATE) : undefined;
    if (pace) ctx.log(`paced at ${pace} reports/s`);
    const result = await postCallbacks({ base: herald.url, connections: CONNECTIONS, sequences, rate: pace });
    const during = await sampler.stop();
    const rate = result.requests / result.seconds;
    ctx.log(
      `${result.requests} reports in ${result.seconds.toFixed(1)} s (${Math.round(rate)}/s), ${result.failures} failed, p50 ${result.latencyP50Ms} / p99 ${result.latencyP99Ms} ms`,
    );
    ctx.log(describeSamples(during, idle));

    const check = await sql<{ delivered: string; logs: string }>`
      select (select count(*) from messages where team_id = ${teamId} and status = 'delivered') as delivered,
             (select count(*) from lead_logs where team_id = ${teamId} and action like 'sms_status_%') as logs`.execute(
      db,
    );
    const { delivered, logs } = check.rows[0];
    ctx.log(`${delivered} of ${total} messages delivered; ${logs} status entries in the Timeline`);
    if (Number(delivered) !== total) throw new Error(`${delivered} of ${total} messages reached delivered`);
    if (Number(logs) !== total * 2) throw new Error(`${logs} Timeline status entries, not ${total * 2}`);

    const label = 'bare Fastify POST, one UPDATE per report';
    return [
      {
        metric: `status reports/s (${total.toLocaleString('en')} messages × sent + delivered, ${CONNECTIONS} connections)`,
        value: Math.round(rate),
        unit: '/s',
        reference: { value: Math.round(reference.requests / reference.seconds), label },
        bar: { op: '>=', target: ctx.database === 'postgres' ? 2_000 : 500, of: 'value', source: BAR },
      },
      {
        metric: 'report latency p50',
        value: result.latencyP50Ms,
        unit: 'ms',
        reference: { value: reference.latencyP50Ms, label },
      },
      {
        metric: 'report latency p99',
        value: result.latencyP99Ms,
        unit: 'ms',
        reference: { value: reference.latencyP99Ms, label },
      },
      {
        metric: 'failed reports',
        value: result.failures,
        unit: 'req',
        reference: { value: reference.failures, label },
        bar: { op: '<=', target: 0, of: 'value', source: 'else the run is void' },
      },
      ...sampleRows('webhook ingest', during, idle, SERVING_BAR),
    ];
  } finally {
    await herald.close();
  }
}

/**
 * The reference: the same callbacks, connections and poster against a bare Fastify route that reads
 * the form and runs one single-row UPDATE by provider id through the app's own database handle (the
 * same pool, or the same PGlite worker). It is the floor of what a report costs: HTTP in, one indexed
 * write out, without verification, the rank rule, the Timeline or the live event.
 */
async function bareReference(ctx: BenchContext, db: Kysely<DB>, sequences: Callback[][]) {
  await sql`create table bench_reports (sid text primary key, status text)`.execute(db);
  await sql`insert into bench_reports select provider_message_id, 'queued' from messages where provider_message_id is not null`.execute(
    db,
  );
  const bare = Fastify({ logger: false });
  bare.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, body),
  );
  bare.post('/api/webhooks/gateways/:id/status', async (req, reply) => {
    const form = new URLSearchParams(req.body as string);
    await sql`update bench_reports set status = ${form.get('MessageStatus')} where sid = ${form.get('MessageSid')}`.execute(
      db,
    );
    return reply.status(200).send('');
  });
  try {
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    ctx.log(`reference: the same callbacks to a bare Fastify POST doing one UPDATE each`);
    const result = await postCallbacks({ base, connections: CONNECTIONS, sequences });
    ctx.log(`reference: ${result.requests} in ${result.seconds.toFixed(1)} s, ${result.failures} failed`);
    return result;
  } finally {
    await bare.close();
    await sql`drop table bench_reports`.execute(db);
  }
}
