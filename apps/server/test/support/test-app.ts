import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Response as InjectResponse } from 'light-my-request';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { waitUntil } from './wait.ts';

/** The databases API tests run on: always the embedded one, PostgreSQL when TEST_DATABASE_URL is set. */
/**
 * The plan catalogue API tests run with unless they name another: the shipped plans with a Trial
 * without limits, so tests that make many sources or leads are not stopped by the Trial's limits.
 * Tests of the limits pass `HERALD_PLANS_FILE` themselves ('' for the shipped catalogue).
 */
export const UNLIMITED_TRIAL_PLANS = fileURLToPath(new URL('../fixtures/plans/unlimited-trial.json', import.meta.url));

export const databases: Array<'embedded' | 'postgres'> = process.env.TEST_DATABASE_URL
  ? ['embedded', 'postgres']
  : ['embedded'];

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  /** Requests with JSON bodies; `token` becomes the bearer header. */
  request(options: InjectOptions & { token?: string }): Promise<InjectResponse>;
  /** The e-mails written to DATA_DIR/mail, oldest first. */
  mails(): Array<{ to: string; subject: string; text: string }>;
  lastMailTo(email: string): { to: string; subject: string; text: string; links: string[] };
  /**
   * Waits for the `count`-th mail to `email` and returns the last one, for mails a job sends after
   * the answer (password reset, a new verification link).
   */
  waitForMail(
    email: string,
    count?: number,
    timeoutMs?: number,
  ): Promise<{ to: string; subject: string; text: string; links: string[] }>;
  close(): Promise<void>;
}

/**
 * Starts the whole app on a fresh database: PGlite in memory, or a schema of its own on the
 * test PostgreSQL so files can run in parallel without seeing each other's rows.
 */
export async function startTestApp(
  kind: 'embedded' | 'postgres',
  env: Record<string, string> = {},
  options: BuildOptions & { shareDatabaseWith?: TestApp } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-test-'));
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  let ownsSchema = true;
  const { shareDatabaseWith, ...buildOptions } = options;
  if (shareDatabaseWith) {
    // A second process of the same deployment: same database and job schema.
    databaseUrl = shareDatabaseWith.app.services.config.DATABASE_URL;
    schema = new URL(databaseUrl as string).searchParams.get('options')?.split('=')[1]?.split(',')[0];
    ownsSchema = false;
  } else if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL as string;
    schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    // Extensions are per database: install once in public, where every test schema finds it.
    await client.query('create extension if not exists pg_trgm with schema public').catch(() => {});
    await client.query(`create schema ${schema}`);
    await client.end();
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    APP_URL: 'http://herald.test',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Shared, as JWT_SECRET is, so two processes on one database read each other's gateway credentials.
    HERALD_SECRET_KEY: 'test-credential-key-test-credential-key-0123',
    LOG_LEVEL: 'silent',
    HERALD_PLANS_FILE: UNLIMITED_TRIAL_PLANS,
    // Test payments through the app's own checkout, which PostgreSQL installations must ask for.
    HERALD_PAYMENTS: 'sandbox',
    ...env,
  });
  const app = await buildApp(config, {
    logger: false,
    jobsSchema: schema ? `${schema}_jobs` : undefined,
    ...buildOptions,
  });
  await app.ready();

  const mailDir = join(dataDir, 'mail');
  const mails = () => {
    let files: string[] = [];
    try {
      files = readdirSync(mailDir).sort();
    } catch {
      return [];
    }
    return files.map((f) => parseEml(readFileSync(join(mailDir, f), 'utf8')));
  };

  const mailsTo = (email: string) => mails().filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
  const withLinks = (mail: { to: string; subject: string; text: string }) => ({
    ...mail,
    links: mail.text.match(/https?:\/\/\S+/g) ?? [],
  });

  return {
    app,
    dataDir,
    request: ({ token, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
    mails,
    lastMailTo(email) {
      const mail = mailsTo(email).at(-1);
      if (!mail) throw new Error(`No mail to ${email}`);
      return withLinks(mail);
    },
    async waitForMail(email, count = 1, timeoutMs = 20_000) {
      // Jobs are polled every 0.5 s; a busy machine can take several times that.
      await waitUntil(`mail #${count} to ${email}`, () => mailsTo(email).length >= count, timeoutMs);
      return withLinks(mailsTo(email).at(-1) as { to: string; subject: string; text: string });
    },
    async close() {
      await app.close();
      if (schema && ownsSchema) {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.query(`drop schema if exists ${schema}_jobs cascade`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Enough of RFC 5322 for the single-part text mails the app writes (nodemailer picks
// quoted-printable or base64 bodies and encoded-word subjects).
export function parseEml(raw: string) {
  const [head, ...bodyParts] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => unfolded.match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]?.trim() ?? '';
  let text = bodyParts.join('\n\n');
  if (/^content-transfer-encoding: base64/im.test(unfolded)) {
    text = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  } else if (/^content-transfer-encoding: quoted-printable/im.test(unfolded)) {
    text = Buffer.from(
      text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  }
  const subject = header('Subject').replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
  return { to: header('To'), subject, text };
}
