import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, fixedAllowance } from './build-options.ts';
import type { Config } from './config.ts';
import { createDomainEvents } from './events/domain-events.ts';
import { closingOnFailure, type HouseModule, registerModules } from './house.ts';
import { registerHttpPlugins } from './http/http-plugins.ts';
import { registerWebApp } from './http/web-app.ts';
import { createAlphaNamesModule } from './modules/alpha-names/index.ts';
import { createAttributesModule } from './modules/attributes/index.ts';
import { createCampaignsModule } from './modules/campaigns/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { createBillingModule } from './modules/billing/index.ts';
import { createDemoModule } from './modules/demo/index.ts';
import { createConfigModule } from './modules/config/index.ts';
import { createEventsModule } from './modules/events/index.ts';
import { createGatewaysModule } from './modules/gateways/index.ts';
import { createHealthModule } from './modules/health/index.ts';
import { createImportsModule } from './modules/imports/index.ts';
import { createLeadsModule } from './modules/leads/index.ts';
import { createLookupsModule } from './modules/lookups/index.ts';
import { createMessagesModule } from './modules/messages/index.ts';
import { createPlansModule, loadPlanFiles } from './modules/plans/index.ts';
import { createProcessesModule } from './modules/processes/index.ts';
import { createSegmentsModule } from './modules/segments/index.ts';
import { createSettingsModule } from './modules/settings/index.ts';
import { createSourcesModule } from './modules/sources/index.ts';
import { createTeamModule } from './modules/team/index.ts';
import { createTemplatesModule } from './modules/templates/index.ts';
import { createShortLinksModule } from './modules/short-links/index.ts';
import { checkoutConfig, createHttpApp, gatewaysConfig, openPlatform } from './platform.ts';

export type { BuildOptions } from './build-options.ts';
export type { AppServices } from './platform.ts';

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Builds the whole server (HTTP, database, jobs, events) without listening. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createHttpApp(config, options);
  // The plan catalogue and price list are read before anything opens: a wrong file stops here.
  const planFiles = loadPlanFiles(config);
  const { database, bus, jobs, mailer, tokens } = await openPlatform(app, config, options);
  await registerHttpPlugins(app, { config, database, tokens });

  // Modules, each wired by its own index.ts from what it is handed: the platform, and narrow
  // functions or hooks of the modules built before it. Nothing is handed a module built after it.
  const db = database.db;
  const runWorkers = config.HERALD_ROLE !== 'api';
  // Modules hear each other's news through this map (packages/shared events/domain-events.ts).
  const domainEvents = createDomainEvents((err, event) => app.log.error({ err, event }, 'domain event handler failed'));
  options.onDomainEvents?.(domainEvents);
  const plans = await closingOnFailure(app, () => createPlansModule({ db, files: planFiles }));
  const limits = {
    assertCanCreate: plans.limits.assertCanCreate,
    provide: plans.features.provide,
    historySince: plans.limits.historySince,
  };
  // What most modules are handed from the platform: each takes the fields its deps name.
  const base = { db, database, bus, jobs, mailer, runWorkers, limits, sweepEveryMs: options.sweepEveryMs };
  const { DATA_DIR: dataDir, APP_URL: appUrl } = config;
  const auth = await createAuthModule({ ...base, tokens, appUrl, startTrial: plans.subscriptions.startTrial });
  const team = createTeamModule({ ...base, appUrl, subscriptions: plans.subscriptions.active });
  const attributes = await createAttributesModule(base);
  const settings = createSettingsModule(base);
  const sources = createSourcesModule({ ...base, leadDeleteBatch: options.leadDeleteBatch });
  const leads = createLeadsModule({
    ...base,
    attributes: attributes.service.list,
    phoneRule: settings.service.phoneRule,
    requireListOfSource: sources.service.requireListOfSource,
    requireList: sources.service.getList,
    cachedTotals: sources.service.leadTotals,
  });
  const imports = await createImportsModule({
    ...base,
    dataDir,
    attributes: attributes.service.list,
    createAttributes: attributes.service.create,
    ignoredFormats: settings.service.phoneTemplate,
    defaultCountry: settings.service.defaultCountry,
    requireList: sources.service.getList,
    onListsDeleting: sources.onListsDeleting,
    chunkRows: options.importChunkRows ?? config.IMPORT_CHUNK_ROWS,
    importAllowance: options.importAllowance ? fixedAllowance(options.importAllowance) : plans.importAllowance,
  });
  const segments = await createSegmentsModule({
    ...base,
    dataDir,
    attributes: attributes.service.list,
    valuesOf: leads.valuesOf,
    defaultCountry: settings.service.defaultCountry,
  });
  const demo = await createDemoModule({
    ...base,
    delivery: { formUrl: config.HERALD_DEMO_FORM_URL, supportEmail: config.HERALD_SUPPORT_EMAIL },
    defaultCountry: settings.service.defaultCountry,
    log: app.log,
  });
  const templates = createTemplatesModule(base);
  const gateways = createGatewaysModule({ ...base, ...gatewaysConfig(config) });
  const alphaNames = await createAlphaNamesModule({
    ...base,
    adminEmails: config.HERALD_ADMIN_EMAILS,
    autoApproveSeconds: config.HERALD_ALPHA_AUTO_APPROVE_SECONDS,
    simulatorReviewSeconds: config.HERALD_SIMULATOR_REVIEW_SECONDS,
    sendsOnlyThroughSimulator: gateways.service.sendsOnlyThroughSimulator,
  });
  const billing = await createBillingModule({
    ...base,
    plans: { byId: plans.catalogue.byId, ...plans.subscriptions, historySince: plans.limits.historySince },
    smsPartPrice: plans.prices.smsPart,
    checkout: checkoutConfig(config),
    events: domainEvents,
  });
  team.provideBalance(billing.profileBalance);
  plans.features.provide('free-sms-limit', billing.freeSmsUsage);
  plans.features.provideConsumer('free-sms-limit', billing.spendFreeSms);
  options.onGateways?.(gateways);
  const shortLinks = await createShortLinksModule({
    ...base,
    appUrl,
    domainProbe: options.domainProbe,
    domainCheckBaseUrl: config.DOMAIN_CHECK_BASE_URL,
    log: app.log,
  });
  options.onShortLinks?.(shortLinks);
  const messages = await createMessagesModule({
    ...base,
    gateways: { adapter: gateways.adapter, sendingList: gateways.service.sendingList },
    statusUrl: (id) => gateways.service.webhookUrl(id, 'status'),
    domainEvents,
    onStatus: gateways.onStatus,
    onInbound: gateways.onInbound,
    phoneRule: settings.service.phoneRule,
    valuesOf: leads.valuesOf,
    pricePerPart: billing.pricePerPart,
    charge: billing.charge,
    chargeMany: billing.chargeMany,
    refund: billing.refund,
    announce: billing.announce,
    leaseMs: config.MESSAGE_CLAIM_LEASE_MS,
    gatewayTimeoutMs: config.GATEWAY_TIMEOUT_MS,
    beforeGatewayCall: options.beforeGatewayCall,
    pollSeconds: options.messagePollSeconds,
    engine: options.messagesEngine,
    shortLinks: { make: shortLinks.make },
    log: app.log,
  });
  const campaigns = await createCampaignsModule({
    ...base,
    appUrl,
    log: app.log,
    segments: {
      requireChain: segments.segments.requireChain,
      predicate: segments.segments.predicate,
      create: segments.segments.create,
    },
    phoneRule: settings.service.phoneRule,
    gateways: { sendingList: gateways.service.sendingList, adapter: gateways.adapter },
    billing: {
      profileBalance: billing.profileBalance,
      pricePerPart: billing.pricePerPart,
      lookupPrice: (currency) => plans.prices.lookup(currency as never),
    },
    subscriptions: plans.subscriptions.active,
    domainEvents,
    runWorkers,
    shortLinks: { makeMany: shortLinks.makeMany },
    singleSms: messages.send.sendSingle,
    exports: segments.exports,
  });

  // Lookups (decision 040): carrier checks through the gateways' lookup, paid through billing.
  const lookups = createLookupsModule({
    ...base,
    gateways: { adapter: gateways.adapter },
    onListsDeleting: sources.onListsDeleting,
    billing,
    lookupPrice: plans.prices.lookup,
    log: app.log,
    engine: options.lookupsEngine,
  });
  options.onLookups?.(lookups);
  // Campaign lookup steps (decision 041) make and move their lookups through the lookups module.
  campaigns.useLookups({
    createForStep: lookups.service.createForStep,
    start: lookups.service.startOne,
    stop: lookups.service.stopOne,
  });
  // An import whose mapping asked for check_mobile_status starts a lookup of its list (decision 041).
  imports.onLookupRequested(async (teamId, userId, listId) => {
    await lookups.service.createForList(teamId, userId, { listId, start: true });
  });

  // The modules, listed once: their routes, pages and stops are registered from this list.
  const modules: HouseModule[] = [
    auth,
    team,
    attributes,
    settings,
    sources,
    leads,
    createHealthModule(base),
    createEventsModule({ bus, heartbeatMs: options.heartbeatMs }),
    createProcessesModule({ processes: jobs.processes }),
    imports,
    segments,
    plans,
    billing,
    demo,
    createConfigModule(),
    gateways,
    templates,
    alphaNames,
    messages,
    shortLinks,
    campaigns,
    lookups,
  ];
  await registerModules(app, modules);

  await registerWebApp(app, config.WEB_DIST ?? defaultWebDist);
  return app;
}
