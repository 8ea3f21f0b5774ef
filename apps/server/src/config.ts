import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every setting of the server, read once at start. `.env.example` documents each. */
const ZConfigSource = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Herald <no-reply@herald.local>'),
  HERALD_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGIN: z.string().optional(),
  TRUST_PROXY: booleanFlag.default(false),
  WEB_DIST: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Leads per publishing transaction of an import (default: 100,000 on PostgreSQL, 20,000 embedded). */
  IMPORT_CHUNK_ROWS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /** The installation's admins (comma-separated e-mails): they approve or reject teams' alpha names. */
  HERALD_ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email('must be comma-separated e-mail addresses'))),
  /** Seconds after which a new alpha name is approved by itself; set by installations whose gateways are simulators. */
  HERALD_ALPHA_AUTO_APPROVE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
  /** The installation's plan catalogue (JSON, decision 015); the shipped one without it. */
  HERALD_PLANS_FILE: z.string().optional(),
  /** The installation's price list of SMS parts and lookups (JSON, decision 015); the shipped one without it. */
  HERALD_PRICES_FILE: z.string().optional(),
});

export type Config = Omit<z.infer<typeof ZConfigSource>, 'JWT_SECRET' | 'APP_URL'> & {
  JWT_SECRET: string;
  APP_URL: string;
};

export class ConfigError extends Error {}

/**
 * Reads configuration from `env`. A wrong value stops the start with a message naming it. A
 * missing JWT_SECRET is generated once and kept under DATA_DIR, so tokens survive restarts.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const source = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfigSource.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = c.DATA_DIR === ':memory:' ? c.DATA_DIR : resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    JWT_SECRET: c.JWT_SECRET ?? readOrCreateSecret(dataDir),
  };
}

function readOrCreateSecret(dataDir: string): string {
  if (dataDir === ':memory:') return randomBytes(32).toString('base64url');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
