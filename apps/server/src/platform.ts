import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import qs from 'qs';
import { createTokenSigner, type TokenSigner } from './auth/tokens.ts';
import type { BuildOptions } from './build-options.ts';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { registerStorableTextGuard } from './http/storable-text.ts';
import { createJobQueue, type JobQueue, jobsSchemaOf } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';

/** The platform every module stands on. */
export interface AppServices {
  config: Config;
  database: Database;
  bus: EventBus;
  jobs: JobQueue;
  mailer: Mailer;
  tokens: TokenSigner;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** The HTTP server: logging, limits, the bracket query parser, zod schemas, errors as codes. */
export function createHttpApp(config: Config, options: BuildOptions): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(options.logger ?? { level: config.LOG_LEVEL }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    routerOptions: {
      // qs reads the spec's bracket queries: order[0]=name,asc, filter[source_id][]=1, ids[0]=5.
      querystringParser: (query) => qs.parse(query, { arrayLimit: 10_000, depth: 3, parameterLimit: 20_000 }),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerStorableTextGuard(app);
  return app;
}

/**
 * Opens the platform (the database migrated to the latest, the bus, the job queue, the mailer, the
 * token signer) as `app.services`, closed in dependency order once in-flight requests have finished.
 */
export async function openPlatform(app: FastifyInstance, config: Config, options: BuildOptions): Promise<AppServices> {
  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
  } catch (error) {
    await database.close();
    throw error;
  }
  const bus = await createEventBus(database.connectionString);
  const schema = options.jobsSchema ?? (await jobsSchemaOf(database));
  const jobs = createJobQueue({ database, bus, schema, runWorkers: config.HERALD_ROLE !== 'api' });
  await jobs.start();
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log });
  const tokens = createTokenSigner(config.JWT_SECRET, config.JWT_TTL_HOURS);
  const services = { config, database, bus, jobs, mailer, tokens };
  app.decorate('services', services);
  app.addHook('onClose', async () => {
    await jobs.stop();
    await bus.close();
    await database.close();
  });
  return services;
}

/** The gateways' settings read from the config: the providers' base URLs and the call timeout. */
export function gatewaysConfig(config: Config) {
  const { TWILIO_BASE_URL: twilio, TELNYX_BASE_URL: telnyx, TURBOSMS_BASE_URL: turbosms } = config;
  const { SMSCLUB_BASE_URL: smsclub, ALPHASMS_BASE_URL: alphasms } = config;
  return {
    secretKey: config.HERALD_SECRET_KEY,
    appUrl: config.APP_URL,
    timeoutMs: config.GATEWAY_TIMEOUT_MS,
    baseUrls: { twilio, telnyx, turbosms, smsclub, alphasms },
  };
}

/** The hosted checkout's settings read from the config: LiqPay only when both keys are set. */
export function checkoutConfig(config: Config) {
  const { LIQPAY_PUBLIC_KEY: publicKey, LIQPAY_PRIVATE_KEY: privateKey } = config;
  const liqpay =
    publicKey && privateKey
      ? { publicKey, privateKey, checkoutUrl: config.LIQPAY_CHECKOUT_URL, sandbox: config.LIQPAY_SANDBOX }
      : undefined;
  return { appUrl: config.APP_URL, liqpay };
}
