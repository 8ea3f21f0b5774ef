import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { serverProcess } from '../support/server-process.ts';
import { waitUntil } from '../support/wait.ts';

const base = process.env.TEST_DATABASE_URL;

/**
 * kill -9 of the server while a single SMS is on its way: once after the row is written and before
 * the provider took the message, once after the provider took it but before its answer was heard.
 * After the restart the row is `unknown` (its claim ran out), and the message is never sent again.
 */
describe.skipIf(!base)('a single SMS survives kill -9 on postgres', () => {
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-sms-kill-'));
  const url = new URL(base ?? 'postgres://x');
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const server = serverProcess({
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    JWT_SECRET: 'sms-kill-secret-sms-kill-secret-0123456789',
    GATEWAY_TIMEOUT_MS: '60000',
    MESSAGE_CLAIM_LEASE_MS: '1000',
  });
  const { start, api } = server;
  let client: pg.Client;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let blackhole: Server | undefined;

  afterAll(async () => {
    await server.dispose();
    await twilio?.close();
    blackhole?.close();
    await client?.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    // pg-boss's, beside it (jobsSchemaOf).
    await client?.query(`drop schema if exists ${schema}_jobs cascade`).catch(() => {});
    await client?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const rows = async () =>
    (await client.query('select id, state, provider_message_id from messages order by id')).rows as Array<{
      id: string;
      state: string;
    }>;
  const charges = async () =>
    Number(
      (await client.query(`select count(*)::int as n from transactions where type = 'sent_single_message'`)).rows[0].n,
    );

  it('leaves the message unknown and unsent again, whether the provider took it or not', async () => {
    client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.query(`set search_path = ${schema}, public`);
    twilio = await startFakeTwilio();
    // The provider takes the call and never answers: the send is in flight when the process dies.
    twilio.mode = 'timeout';
    // A host that accepts connections and never reads them: the request never reaches a provider.
    let connections = 0;
    blackhole = createServer(() => {
      connections++;
    });
    await new Promise<void>((r) => blackhole?.listen(0, '127.0.0.1', r));
    const blackholeUrl = `http://127.0.0.1:${(blackhole.address() as { port: number }).port}`;

    await start();
    // Its jobs live beside its schema, never in a `pgboss` schema other runs on this database share
    // (a worker there once took another run's import and left it queued for good).
    const jobsSchemas = await client.query(
      `select schema_name from information_schema.schemata where schema_name in ($1, 'pgboss') order by 1`,
      [`${schema}_jobs`],
    );
    expect(jobsSchemas.rows.map((r) => r.schema_name)).toContain(`${schema}_jobs`);
    const password = 'Secret-pass1';
    const signup = await api('POST', '/auth/signup', undefined, {
      name: 'Kill Test',
      email: 'sms-kill@example.com',
      password,
      password_confirmation: password,
    });
    expect(signup.status).toBe(201);
    await client.query('update users set email_verified_at = now()');
    const token = signup.json.access_token as string;
    const gateway = async (name: string, baseUrl: string) => {
      const res = await api('POST', '/config/gateway/messaging', token, {
        type: 'twilio',
        name,
        credentials: {
          sid: twilio.account.sid,
          token: twilio.account.token,
          from_twilio: '+15005550006',
          base_url: baseUrl,
        },
      });
      expect(res.status).toBe(201);
      return res.json.id as number;
    };
    const before = await gateway('Never reached', blackholeUrl);
    const after = await gateway('Reached', twilio.url);

    const cases = [
      { gatewayId: before, reached: () => connections === 1, providerCalls: 0 },
      { gatewayId: after, reached: () => twilio.calls.length === 1, providerCalls: 1 },
    ];
    for (const [i, c] of cases.entries()) {
      // Not awaited: the answer never comes, the process dies first.
      void api(
        'POST',
        '/leads/single-sms',
        token,
        { phone: '+380501234567', message: `Kill ${i}`, gateway_id: c.gatewayId },
        {
          'idempotency-key': `kill-test-${i}`,
        },
      ).catch(() => {});
      await waitUntil('the gateway call', c.reached);
      expect((await rows())[i]).toMatchObject({ state: 'claimed' });
      await server.stop('SIGKILL');
      // The start sweeps claims whose lease has run out, and then once a minute: restarting within
      // the lease's second would leave this claim to the sweep a minute later.
      await waitUntil(
        "the claim's lease run out",
        async () =>
          (await client.query('select lease_until < now() as out from messages order by id')).rows[i]?.out === true,
      );
      await start();
      await waitUntil('the claim swept to unknown', async () => (await rows())[i]?.state === 'unknown');
      expect(twilio.calls.length).toBe(cases.slice(0, i + 1).reduce((n, x) => n + x.providerCalls, 0));
      expect(await charges()).toBe(i + 1);
    }
    // The client retries its request after the restart: the same row answers, nothing is sent again.
    const retried = await api(
      'POST',
      '/leads/single-sms',
      token,
      { phone: '+380501234567', message: 'Kill 1', gateway_id: after },
      { 'idempotency-key': 'kill-test-1' },
    );
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ code: 'sms_send_unknown', data: { state: 'unknown' } });
    expect(twilio.calls.length).toBe(1);
    expect(connections).toBe(1);
    expect(await charges()).toBe(2);
    expect(await rows()).toHaveLength(2);
  }, 300_000);
});
