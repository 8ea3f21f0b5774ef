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
  /** LiqPay keys; both or neither. Neither: the app's own sandbox checkout takes payments (decision 016). */
  LIQPAY_PUBLIC_KEY: z.string().min(1).max(200).optional(),
  LIQPAY_PRIVATE_KEY: z.string().min(1).max(200).optional(),
  LIQPAY_CHECKOUT_URL: z.url().default('https://www.liqpay.ua/api/3/checkout'),
  /** With LiqPay keys: ask LiqPay for sandbox payments and count their `sandbox` status as paid. */
  LIQPAY_SANDBOX: booleanFlag.default(false),
  /**
   * `sandbox`: take test payments through the app's own checkout (no real money), asked for
   * explicitly on PostgreSQL, where a start without LiqPay keys is otherwise refused (decision 027).
   */
  HERALD_PAYMENTS: z.enum(['sandbox', 'liqpay']).optional(),
  /** The installation's plan catalogue (JSON, decision 015); the shipped one without it. */
  HERALD_PLANS_FILE: z.string().optional(),
  /** The installation's price list of SMS parts and lookups (JSON, decision 015); the shipped one without it. */
  HERALD_PRICES_FILE: z.string().optional(),
  /** Where demo requests are posted as a form (source=App); unset: they are mailed to support. */
  HERALD_DEMO_FORM_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The installation's support address: demo requests go there when no form service is set. */
  HERALD_SUPPORT_EMAIL: z.email().optional(),
  /** Seals gateway credentials (AES-256-GCM); generated into DATA_DIR when missing. Every node must share it. */
  HERALD_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Default API base URLs of the SMS providers, for a gateway that names none (a proxy, a test fake). */
  TWILIO_BASE_URL: z.url().optional(),
  TELNYX_BASE_URL: z.url().optional(),
  TURBOSMS_BASE_URL: z.url().optional(),
  SMSCLUB_BASE_URL: z.url().optional(),
  ALPHASMS_BASE_URL: z.url().optional(),
  /**
   * Where the short-URL domain check asks for a domain's proof file, with the domain as Host (a
   * reverse proxy in front of the app, or the app itself); unset, port 80 of the domain (decision 028).
   */
  DOMAIN_CHECK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long one call to an SMS provider may take before its outcome counts as unknown. */
  GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
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
    .pipe(z.array(z.email('must be comma-separated email addresses'))),
  /** Seconds after which a new alpha name is approved by itself; set by installations whose gateways are simulators. */
  HERALD_ALPHA_AUTO_APPROVE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
  /** The simulator's review of an alpha name: a team that sends only through it has its names approved after this. */
  HERALD_SIMULATOR_REVIEW_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(30),
  /**
   * How long a message being sent holds its claim; after it a sweep calls the send's outcome unknown
   * (the process died mid-send). Default: three gateway timeouts plus 30 s.
   */
  MESSAGE_CLAIM_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).optional(),
});

export type Config = Omit<z.infer<typeof ZConfigSource>, 'JWT_SECRET' | 'APP_URL' | 'HERALD_SECRET_KEY'> & {
  JWT_SECRET: string;
  APP_URL: string;
  HERALD_SECRET_KEY: string;
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
  if (Boolean(c.LIQPAY_PUBLIC_KEY) !== Boolean(c.LIQPAY_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  LIQPAY_PRIVATE_KEY: set both LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY, or neither',
    );
  }
  // A server installation (PostgreSQL) without payment keys would let any owner credit test money:
  // it starts only when that is asked for. The embedded default keeps the sandbox, and says so.
  if (!c.LIQPAY_PUBLIC_KEY && (c.HERALD_PAYMENTS === 'liqpay' || (c.DATABASE_URL && c.HERALD_PAYMENTS !== 'sandbox'))) {
    throw new ConfigError(
      'Invalid configuration:\n  LIQPAY_PUBLIC_KEY: payments need LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY; ' +
        'set HERALD_PAYMENTS=sandbox to take test payments (no real money) instead',
    );
  }
  const dataDir = c.DATA_DIR === ':memory:' ? c.DATA_DIR : resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    JWT_SECRET: c.JWT_SECRET ?? readOrCreateSecret(dataDir),
    HERALD_SECRET_KEY: c.HERALD_SECRET_KEY ?? readOrCreateSecret(dataDir, 'secret-key'),
  };
}

function readOrCreateSecret(dataDir: string, name = 'jwt-secret'): string {
  if (dataDir === ':memory:') return randomBytes(32).toString('base64url');
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
