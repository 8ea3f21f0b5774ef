import { fileURLToPath } from 'node:url';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import qs from 'qs';
import type { Kysely } from 'kysely';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { authenticatePlugin } from './auth/authenticate.ts';
import { createTokenSigner, type TokenSigner } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createEventBus, type EventBus } from './events/event-bus.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerWebApp } from './http/web-app.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createAttributesRepository } from './modules/attributes/attributes.repository.ts';
import { attributesRoutes } from './modules/attributes/attributes.routes.ts';
import { createAttributesService } from './modules/attributes/attributes.service.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createRateLimiter } from './modules/auth/rate-limiter.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { createImportsModule } from './modules/imports/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createLeadLogRepository } from './modules/leads/lead-log.repository.ts';
import { createLeadValuesService } from './modules/leads/lead-values.service.ts';
import { createLeadsRepository } from './modules/leads/leads.repository.ts';
import { leadsRoutes } from './modules/leads/leads.routes.ts';
import { createLeadsService } from './modules/leads/leads.service.ts';
import { createProcessesRepository } from './modules/processes/processes.repository.ts';
import { processesRoutes } from './modules/processes/processes.routes.ts';
import { createSegmentsModule } from './modules/segments/index.ts';
import { startSweeper } from './jobs/sweeper.ts';
import { createValidationTemplateRepository } from './modules/settings/settings.repository.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createVersionedCache } from './db/versioned-cache.ts';
import { createSourcesRepository, EMBEDDED_LEAD_DELETE_BATCH } from './modules/sources/sources.repository.ts';
import { sourcesRoutes } from './modules/sources/sources.routes.ts';
import { createSourcesService } from './modules/sources/sources.service.ts';
import { createTeamRepository } from './modules/team/team.repository.ts';
import { teamRoutes } from './modules/team/team.routes.ts';
import { createTeamService } from './modules/team/team.service.ts';

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
   * Leads a team may still import under its plan (null: no limit). Plans are not built yet, so
   * every team is unlimited; tests give a number to prove the limit ends an import.
   */
  importAllowance?: (teamId: number) => Promise<number | null>;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole server (HTTP, database, jobs, events) without listening. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
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

  const database = createDatabase(config);
  try {
    await migrateToLatest(database.db as unknown as Kysely<unknown>);
  } catch (error) {
    await database.close();
    throw error;
  }
  const bus = await createEventBus(database.connectionString);
  const processes = createProcessesRepository(database.db);
  const jobs = createJobQueue({
    database,
    bus,
    processes,
    schema: options.jobsSchema,
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

  await app.register(helmet, {
    // The bearer token lives in browser storage: no inline script may run, ever.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Plain-HTTP installs (an intranet host) must keep working; TLS is the proxy's job.
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(rateLimit, { global: false });
  if (config.CORS_ORIGIN) await app.register(cors, { origin: config.CORS_ORIGIN.split(',') });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Herald API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(authenticatePlugin, { db: database.db, tokens });

  const db = database.db;
  const appUrl = config.APP_URL;
  const auth = createAuthService({
    repo: createAuthRepository(db),
    tokens,
    mailer,
    limiter: createRateLimiter(db),
    appUrl,
  });
  const team = createTeamService({ repo: createTeamRepository(db), mailer, appUrl });
  const attributes = createAttributesService(createAttributesRepository(db));
  if (config.HERALD_ROLE !== 'api') {
    const presence = await startSweeper(options.sweepEveryMs ?? 10_000, () => attributes.clearRetiredPresenceBits());
    app.addHook('onClose', async () => presence.stop());
  }
  const settings = createSettingsService(createValidationTemplateRepository(db));
  const sources = createSourcesService(
    createSourcesRepository(
      db,
      options.leadDeleteBatch ?? (database.kind === 'embedded' ? EMBEDDED_LEAD_DELETE_BATCH : null),
    ),
    createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 2_000 }),
    // The imports module is built below, on the sources' list checks; a delete calls it later.
    (teamId, by, ids) => imports.service.stopRunsOf(teamId, by, ids),
  );
  const leadsRepo = createLeadsRepository(db);
  const leadLog = createLeadLogRepository(db);
  const leads = createLeadsService({
    repo: leadsRepo,
    log: leadLog,
    bus,
    attributes: attributes.list,
    phoneRule: settings.phoneRule,
    requireListOfSource: sources.requireListOfSource,
    requireList: sources.getList,
    cachedTotals: sources.leadTotals,
    runInTransaction: leadsRepo.transaction,
  });
  const leadValues = createLeadValuesService({
    repo: leadsRepo,
    log: leadLog,
    attributes: attributes.list,
    phoneRule: settings.phoneRule,
  });

  const imports = await createImportsModule({
    database,
    bus,
    jobs,
    processes,
    dataDir: config.DATA_DIR,
    runWorkers: config.HERALD_ROLE !== 'api',
    attributes: attributes.list,
    createAttributes: attributes.create,
    ignoredFormats: settings.phoneTemplate,
    defaultCountry: settings.defaultCountry,
    requireList: sources.getList,
    sweepEveryMs: options.sweepEveryMs,
    chunkRows: options.importChunkRows ?? config.IMPORT_CHUNK_ROWS,
    importAllowance: options.importAllowance,
  });
  app.addHook('onClose', async () => imports.stop());
  const segments = await createSegmentsModule({
    database,
    bus,
    jobs,
    dataDir: config.DATA_DIR,
    runWorkers: config.HERALD_ROLE !== 'api',
    sweepEveryMs: options.sweepEveryMs,
    attributes: attributes.list,
    valuesOf: (teamId, leadIds) => leadsRepo.valuesOf(teamId, leadIds),
    defaultCountry: settings.defaultCountry,
  });
  app.addHook('onClose', async () => segments.stop());

  await app.register(authRoutes, { prefix: '/api/auth', auth });
  await app.register(
    async (api) => {
      await api.register(teamRoutes, { team });
      await api.register(attributesRoutes, { attributes });
      await api.register(settingsRoutes, { settings });
      await api.register(sourcesRoutes, { sources });
      await api.register(leadsRoutes, {
        leads,
        values: leadValues,
        pages: createVersionedCache({ ttlMs: 5 * 60_000, maxEntries: 500 }),
      });
      await api.register(healthRoutes, { database, jobs });
      await api.register(eventsRoutes, { bus, heartbeatMs: options.heartbeatMs ?? 15_000 });
      await api.register(processesRoutes, { processes });
      await api.register(imports.routes);
      await api.register(segments.routes);
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.WEB_DIST ?? defaultWebDist);
  return app;
}
