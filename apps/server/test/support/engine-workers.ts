import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serverProcess } from './server-process.ts';

/**
 * Server processes of one deployment on a PostgreSQL schema of their own (the sending engine's
 * tests): each sends from the rows they share, as a worker on another machine would.
 */
export async function engineWorkers(base: string, count: number, env: Record<string, string> = {}) {
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-engine-'));
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.query(`set search_path = ${schema}, public`);
  // One environment for all: read at each start, so the app's URL can name the first worker's port.
  const shared: Record<string, string> = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    JWT_SECRET: 'engine-workers-secret-engine-workers-0123456789',
    ...env,
  };
  const workers = Array.from({ length: count }, () => serverProcess(shared));
  // Callbacks (status URLs carry APP_URL) reach the first worker while it runs.
  shared.APP_URL = `http://127.0.0.1:${workers[0].port}`;
  return {
    schema,
    client,
    workers,
    /** An owner, verified, through the first worker's API. */
    async owner(email = `engine-${randomUUID().slice(0, 8)}@example.com`) {
      const password = 'Secret-pass1';
      const signup = await workers[0].api('POST', '/auth/signup', undefined, {
        name: 'Engine Test',
        email,
        password,
        password_confirmation: password,
      });
      if (signup.status !== 201) throw new Error(`signup: ${JSON.stringify(signup.json)}`);
      await client.query('update users set email_verified_at = now() where email = $1', [email]);
      const user = await client.query('select id, team_id from users where email = $1', [email]);
      return {
        token: signup.json.access_token as string,
        userId: Number(user.rows[0].id),
        teamId: Number(user.rows[0].team_id),
      };
    },
    /** Queues `count` rendered pending rows, one per phone, in one statement (as a campaign step does). */
    async queue(owner: { userId: number; teamId: number }, gatewayId: number, count: number, prefix: string) {
      await client.query(
        `insert into messages (team_id, user_id, kind, phone, gateway_id, text, parts, encoding, charge_key, state)
         select $1, $2, 'campaign_step', '+38050' || lpad(i::text, 7, '0'), $3, $4 || ' ' || i, 1, 'GSM-7',
           $4 || ':' || i, 'pending'
         from generate_series(1, $5::int) as i`,
        [owner.teamId, owner.userId, gatewayId, prefix, count],
      );
    },
    async dispose() {
      for (const w of workers) await w.dispose();
      await client.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await client.query(`drop schema if exists ${schema}_jobs cascade`).catch(() => {});
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
