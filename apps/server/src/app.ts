import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import qs from 'qs';
import { phoneCountry } from '@herald/shared/messages/phone-country';
import type { Kysely } from 'kysely';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createTokenSigner, type TokenSigner } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createDomainEvents } from './events/domain-events.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { AppError } from './http/app-error.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerHttpPlugins } from './http/http-plugins.ts';
import { loggerOptions } from './http/log-redaction.ts';
import { registerStorableTextGuard } from './http/storable-text.ts';
import { registerWebApp } from './http/web-app.ts';
import { createJobQueue, type JobQueue, jobsSchemaOf } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createAlphaNamesModule } from './modules/alpha-names/index.ts';
import { createAttributesModule } from './modules/attributes/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { createBillingModule } from './modules/billing/index.ts';
import { createDemoModule } from './modules/demo/index.ts';
import { createConfigModule } from './modules/config/index.ts';
import { createEventsModule } from './modules/events/index.ts';
import { createGatewaysModule } from './modules/gateways/index.ts';
import { createHealthModule } from './modules/health/index.ts';
import { createImportsModule } from './modules/imports/index.ts';
import { createLeadsModule } from './modules/leads/index.ts';
import { createMessagesModule } from './modules/messages/index.ts';
import { createPlansModule, loadPlanFiles } from './modules/plans/index.ts';
import { createProcessesModule } from './modules/processes/index.ts';
import { createSegmentsModule } from './modules/segments/index.ts';
import { createSettingsModule } from './modules/settings/index.ts';
import { createSourcesModule } from './modules/sources/index.ts';
import { createTeamModule } from './modules/team/index.ts';
import { createTemplatesModule } from './modules/templates/index.ts';
import { createShortLinksModule } from './modules/short-links/index.ts';

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

export interface BuildOptions {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  mailer?: Mailer;
  heartbeatMs?: number;
  /** pg-boss schema; tests give each run its own. */
  jobsSchema?: string;
  /** How often imports and exports look for runs that died with their process; tests shorten it. */
  sweepEveryMs?: number;
  /** Leads per import publishing transaction; tests make it small to stop an import midway. */
  importChunkRows?: number;
  /** Leads deleted a transaction when a list or source goes (embedded: 5,000; PostgreSQL: all in one); tests make it small. */
  leadDeleteBatch?: number;
  /**
   * Leads a team may still import (null: no limit), in place of its plan's import limit: tests
   * give a number to prove the limit ends an import without importing a plan's worth of leads.
   */
  importAllowance?: (teamId: number) => Promise<number | null>;
  /**
   * Handed the gateways' offer to the sending side (send through a gateway, hear its reports), as
   * the messages module will take it; tests use it to send and to watch reports arrive.
   */
  onGateways?: (gateways: Pick<ReturnType<typeof createGatewaysModule>, 'adapter' | 'onStatus' | 'onInbound'>) => void;
  /** Runs just before a message's gateway call; tests stop a send there as a crash would. */
  beforeGatewayCall?: (message: { id: number; team_id: number }) => Promise<void>;
  /** Seconds between status polls of a message (polled providers); tests make it short. */
  messagePollSeconds?: number;
  /** Handed the short links' `make`, as the messages module will take it; tests make links with it. */
  onShortLinks?: (shortLinks: Pick<ReturnType<typeof createShortLinksModule>, 'make' | 'makeMany' | 'appHost'>) => void;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole server (HTTP, database, jobs, events) without listening. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
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
  // The plan catalogue and price list are read before anything opens: a wrong file stops here.
  const planFiles = loadPlanFiles(config);

  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
  } catch (error) {
    await database.close();
    throw error;
  }
  const bus = await createEventBus(database.connectionString);
  const jobs = createJobQueue({
    database,
    bus,
    schema: options.jobsSchema ?? (await jobsSchemaOf(database)),
    runWorkers: config.HERALD_ROLE !== 'api',
  });
  await jobs.start();
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log });
  const tokens = createTokenSigner(config.JWT_SECRET, config.JWT_TTL_HOURS);
  app.decorate('services', { config, database, bus, jobs, mailer, tokens });

  // Stop in dependency order once in-flight requests have finished.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await bus.close();
    await database.close();
  });

  await registerHttpPlugins(app, { config, database, tokens });

  // Modules, each wired by its own index.ts from what it is handed: the platform, and narrow
  // functions or hooks of the modules built before it. Nothing is handed a module built after it.
  const db = database.db;
  // Modules hear each other's news through this map (packages/shared events/domain-events.ts).
  const domainEvents = createDomainEvents((err, event) => app.log.error({ err, event }, 'domain event handler failed'));
  const runWorkers = config.HERALD_ROLE !== 'api';
  let plans: Awaited<ReturnType<typeof createPlansModule>>;
  try {
    plans = await createPlansModule({ db, files: planFiles });
  } catch (error) {
    await app.close();
    throw error;
  }
  const limits = {
    assertCanCreate: plans.limits.assertCanCreate,
    provide: plans.features.provide,
    historySince: plans.limits.historySince,
  };
  const auth = await createAuthModule({
    db,
    tokens,
    mailer,
    jobs,
    appUrl: config.APP_URL,
    startTrial: plans.subscriptions.startTrial,
  });
  const team = createTeamModule({
    db,
    mailer,
    appUrl: config.APP_URL,
    limits,
    subscriptions: plans.subscriptions.active,
  });
  const attributes = await createAttributesModule({ db, runWorkers, sweepEveryMs: options.sweepEveryMs, limits });
  const settings = createSettingsModule({ db });
  const sources = createSourcesModule({ database, leadDeleteBatch: options.leadDeleteBatch, limits });
  const leads = createLeadsModule({
    db,
    bus,
    attributes: attributes.service.list,
    phoneRule: settings.service.phoneRule,
    requireListOfSource: sources.service.requireListOfSource,
    requireList: sources.service.getList,
    cachedTotals: sources.service.leadTotals,
    limits,
  });
  const imports = await createImportsModule({
    database,
    bus,
    jobs,
    dataDir: config.DATA_DIR,
    runWorkers,
    attributes: attributes.service.list,
    createAttributes: attributes.service.create,
    ignoredFormats: settings.service.phoneTemplate,
    defaultCountry: settings.service.defaultCountry,
    requireList: sources.service.getList,
    onListsDeleting: sources.onListsDeleting,
    sweepEveryMs: options.sweepEveryMs,
    chunkRows: options.importChunkRows ?? config.IMPORT_CHUNK_ROWS,
    importAllowance: options.importAllowance ? fixedAllowance(options.importAllowance) : plans.importAllowance,
    limits,
  });
  const segments = await createSegmentsModule({
    database,
    bus,
    jobs,
    dataDir: config.DATA_DIR,
    runWorkers,
    sweepEveryMs: options.sweepEveryMs,
    attributes: attributes.service.list,
    valuesOf: leads.valuesOf,
    defaultCountry: settings.service.defaultCountry,
    limits,
  });
  const demo = await createDemoModule({
    db,
    jobs,
    mailer,
    delivery: { formUrl: config.HERALD_DEMO_FORM_URL, supportEmail: config.HERALD_SUPPORT_EMAIL },
    defaultCountry: settings.service.defaultCountry,
    log: app.log,
  });
  const templates = createTemplatesModule({ db });
  const gateways = createGatewaysModule({
    db,
    secretKey: config.HERALD_SECRET_KEY,
    appUrl: config.APP_URL,
    timeoutMs: config.GATEWAY_TIMEOUT_MS,
    baseUrls: {
      twilio: config.TWILIO_BASE_URL,
      telnyx: config.TELNYX_BASE_URL,
      turbosms: config.TURBOSMS_BASE_URL,
      smsclub: config.SMSCLUB_BASE_URL,
      alphasms: config.ALPHASMS_BASE_URL,
    },
  });
  const alphaNames = await createAlphaNamesModule({
    db,
    jobs,
    adminEmails: config.HERALD_ADMIN_EMAILS,
    autoApproveSeconds: config.HERALD_ALPHA_AUTO_APPROVE_SECONDS,
    simulatorReviewSeconds: config.HERALD_SIMULATOR_REVIEW_SECONDS,
    sendsOnlyThroughSimulator: gateways.service.sendsOnlyThroughSimulator,
    limits,
  });
  const processesModule = createProcessesModule({ processes: jobs.processes });
  const events = createEventsModule({ bus, heartbeatMs: options.heartbeatMs });
  const health = createHealthModule({ database, jobs });
  const billing = await createBillingModule({
    db,
    bus,
    jobs,
    mailer,
    runWorkers,
    plans: { byId: plans.catalogue.byId, ...plans.subscriptions, historySince: plans.limits.historySince },
    smsPartPrice: plans.prices.smsPart,
    checkout: {
      appUrl: config.APP_URL,
      liqpay:
        config.LIQPAY_PUBLIC_KEY && config.LIQPAY_PRIVATE_KEY
          ? {
              publicKey: config.LIQPAY_PUBLIC_KEY,
              privateKey: config.LIQPAY_PRIVATE_KEY,
              checkoutUrl: config.LIQPAY_CHECKOUT_URL,
              sandbox: config.LIQPAY_SANDBOX,
            }
          : undefined,
    },
  });
  team.provideBalance(billing.profileBalance);
  plans.features.provide('free-sms-limit', billing.freeSmsUsage);
  plans.features.provideConsumer('free-sms-limit', billing.spendFreeSms);
  const config_ = createConfigModule();
  options.onGateways?.(gateways);
  const shortLinks = createShortLinksModule({ db, appUrl: config.APP_URL, limits });
  options.onShortLinks?.(shortLinks);
  const messages = await createMessagesModule({
    db,
    bus,
    jobs,
    gateways: { adapter: gateways.adapter, sendingList: gateways.service.sendingList },
    statusUrl: (id) => gateways.service.webhookUrl(id, 'status'),
    onStatus: gateways.onStatus,
    onInbound: gateways.onInbound,
    phoneRule: settings.service.phoneRule,
    valuesOf: leads.valuesOf,
    async pricePerPart(teamId, userId, phone) {
      const { balance_currency } = await billing.profileBalance(teamId, userId);
      return plans.prices.smsPart(phoneCountry(phone) ?? 'UA', balance_currency);
    },
    charge: billing.charge,
    announce: billing.announce,
    leaseMs: config.MESSAGE_CLAIM_LEASE_MS ?? config.GATEWAY_TIMEOUT_MS * 3 + 30_000,
    runWorkers,
    sweepEveryMs: options.sweepEveryMs ?? 60_000,
    beforeGatewayCall: options.beforeGatewayCall,
    pollSeconds: options.messagePollSeconds,
    shortLinks: { make: shortLinks.make },
  });

  app.addHook('onClose', async () => {
    for (const module of [attributes, imports, segments, gateways, messages]) module.stop();
    await shortLinks.stop();
  });

  await app.register(auth.routes, { prefix: '/api/auth' });
  const apiModules = [
    team,
    attributes,
    settings,
    sources,
    leads,
    health,
    events,
    processesModule,
    imports,
    segments,
    plans,
    billing,
    demo,
    config_,
    gateways,
    templates,
    alphaNames,
    messages,
    shortLinks,
  ];
  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module.routes);
    },
    { prefix: '/api' },
  );

  await app.register(billing.pageRoutes);
  await app.register(shortLinks.redirectRoutes);

  await registerWebApp(app, config.WEB_DIST ?? defaultWebDist);
  return app;
}

/** `BuildOptions.importAllowance` as the imports module's hook: a fixed number of leads a run may import. */
function fixedAllowance(allowance: (teamId: number) => Promise<number | null>) {
  return {
    async reserve(teamId: number) {
      const left = await allowance(teamId);
      if (left !== null && left <= 0) throw new AppError('import_limit_reached');
    },
    async claim(teamId: number, _importId: number, count: number) {
      const left = await allowance(teamId);
      return left === null || count <= left ? null : { code: 'import_limit_reached' as const, most: left };
    },
  };
}
