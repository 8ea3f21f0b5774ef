import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { UNLIMITED_TRIAL_PLANS } from './plans-file.ts';
import type { BenchContext } from './types.ts';

export interface RunningHerald {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Signs up a team owner with the e-mail already verified: their token and team. */
  signUpOwner(): Promise<{ token: string; teamId: number }>;
  /** The configuration it was built from, and its job schema: another process of the same deployment starts from them. */
  env: Record<string, string>;
  jobsSchema?: string;
  close(): Promise<void>;
}

/**
 * Starts the real app on 127.0.0.1 and a random port, on a temp DATA_DIR: embedded PGlite, or a
 * fresh schema on BENCH_DATABASE_URL that `close` drops again, so runs never see each other's rows.
 */
export async function startHerald(
  ctx: BenchContext,
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<RunningHerald> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const schema = ctx.databaseUrl ? `bench_${randomUUID().replaceAll('-', '').slice(0, 16)}` : undefined;
  let databaseUrl: string | undefined;
  if (ctx.databaseUrl && schema) {
    // As the tests do: a migration run first on another search path would put pg_trgm in that schema.
    await onPostgres(
      ctx.databaseUrl,
      `create extension if not exists pg_trgm with schema public; create schema ${schema}`,
    );
    const url = new URL(ctx.databaseUrl);
    // public stays on the path: extensions (pg_trgm) are installed there once per database.
    url.searchParams.set('options', `-c search_path=${schema},public`);
    databaseUrl = url.toString();
  }
  const cleanup = async () => {
    if (ctx.databaseUrl && schema) {
      await onPostgres(
        ctx.databaseUrl,
        `drop schema if exists ${schema} cascade; drop schema if exists ${schema}_jobs cascade`,
      );
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  let app: FastifyInstance | undefined;
  // An explicit env, not process.env: a DATABASE_URL in the shell must not redirect the bench.
  const configEnv: Record<string, string> = {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    HERALD_PLANS_FILE: UNLIMITED_TRIAL_PLANS,
    // Test payments, which a PostgreSQL installation must ask for.
    HERALD_PAYMENTS: 'sandbox',
    // For A/B runs of the import's chunking: fixed chunks of this many rows instead of sized ones.
    ...(process.env.BENCH_IMPORT_CHUNK_ROWS ? { IMPORT_CHUNK_ROWS: process.env.BENCH_IMPORT_CHUNK_ROWS } : {}),
    ...env,
  };
  const jobsSchema = schema ? `${schema}_jobs` : undefined;
  try {
    app = await buildApp(loadConfig(configEnv), { logger: false, jobsSchema, ...options });
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await app?.close();
    await cleanup();
    throw error;
  }
  const running = app;
  const { port } = running.server.address() as AddressInfo;
  return {
    app: running,
    url: `http://127.0.0.1:${port}`,
    env: configEnv,
    jobsSchema,
    async signUpOwner() {
      const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const signup = await running.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { name: 'Bench', email, password: 'Bench-pass1', password_confirmation: 'Bench-pass1' },
      });
      if (signup.statusCode !== 201 && signup.statusCode !== 200) {
        throw new Error(`sign-up answered ${signup.statusCode}: ${signup.body}`);
      }
      const db = running.services.database.db;
      const user = await db
        .updateTable('users')
        .set({ email_verified_at: new Date() })
        .where('email', '=', email)
        .returning('team_id')
        .executeTakeFirstOrThrow();
      return { token: signup.json().access_token as string, teamId: Number(user.team_id) };
    },
    async close() {
      await running.close();
      await cleanup();
    },
  };
}

async function onPostgres(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
