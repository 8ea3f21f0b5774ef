import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../db/schema.ts';
import { CatalogueError, type Catalogue, loadCatalogue, loadPrices, type Prices } from './catalogue.ts';
import { createFeatureRegistry, type FeatureConsumer, type UsageProvider } from './features.ts';
import { claimedByRunningImports, leadsClaimedNotAdded, createImportAllowance } from './import-allowance.ts';
import { createLimits } from './limits.ts';
import { plansRoutes } from './plans.routes.ts';
import { createPlansService } from './plans.service.ts';
import { createSubscriptionsRepository } from './subscriptions.repository.ts';

export { CatalogueError } from './catalogue.ts';
export type { DueSubscription } from './plans.service.ts';

export interface PlansModuleDeps {
  db: Kysely<DB>;
  /** The files read by `loadPlanFiles` before anything else starts. */
  files: PlanFiles;
}

export type PlanFiles = { catalogue: Catalogue; prices: Prices; plansFile?: string };

/**
 * Reads and checks the catalogue (`HERALD_PLANS_FILE`, else the shipped default-plans.json) and
 * the price list (`HERALD_PRICES_FILE`, else default-prices.json). Called first at start, before
 * the database opens, so a wrong file stops the start with only its message (CatalogueError).
 */
export function loadPlanFiles(config: { HERALD_PLANS_FILE?: string; HERALD_PRICES_FILE?: string }): PlanFiles {
  return {
    catalogue: loadCatalogue(config.HERALD_PLANS_FILE),
    prices: loadPrices(config.HERALD_PRICES_FILE),
    plansFile: config.HERALD_PLANS_FILE,
  };
}

/**
 * Plans, subscriptions and the limits of features (decision 015). Built before the modules that
 * create what a plan limits; they are handed `assertCanCreate` and register the usage of their
 * feature with `features.provide`.
 *
 * What it offers the other modules:
 * - `limits.assertCanCreate(tx, teamId, slug, amount?)`: in the create's own transaction, before
 *   the insert; a 422 (`subscription_required`, `plan_feature_missing`, `plan_limit_reached`)
 *   when the plan does not allow it. Alpha names (`alpha-name-limit`) and short-URL domains
 *   (`short-url-domain`) call it from their own modules.
 * - `features.provide(slug, (db, teamId, since) => count)`: a module's usage of its feature,
 *   counted from its rows (`since` is the period's start, for the per-period features).
 *   `free-sms-limit` is provided by the billing module, which spends free SMS; until it registers,
 *   no free SMS count as used.
 * - `features.provideConsumer('free-sms-limit', fn)`: billing spends free SMS for the test tab's
 *   "send 10 SMS"; until it registers, that test answers `plan_feature_unavailable`.
 * - `subscriptions.activate / dueForRenewal / renew / end`: for billing's purchase and renewal job,
 *   each in the caller's transaction so the money and the plan commit together.
 * - `subscriptions.startTrial(tx, teamId, userId)`: sign-up gives the new owner the Trial.
 * - `subscriptions.active(teamId)`: the subscriptions in force, for `GET /api/user`.
 * - `importAllowance`: the imports module's hook (reserve at dispatch, claim while parsing).
 * - `prices.smsPart(countryIso, currency)`, `prices.lookup(currency)`: minor units.
 */
export async function createPlansModule(deps: PlansModuleDeps) {
  const { db } = deps;
  const { catalogue, prices } = deps.files;
  const repo = createSubscriptionsRepository();

  // A plan removed from the file while teams still hold it would leave them with limits nobody
  // knows: the start stops and says which.
  const missing = (await repo.currentPlanIds(db)).filter((id) => !catalogue.byId(id));
  if (missing.length > 0) {
    throw new CatalogueError(
      `HERALD_PLANS_FILE (${deps.files.plansFile ?? 'default'}): plans ${missing.join(', ')} are held by current subscriptions but missing from the catalogue`,
    );
  }
  // Teams from before plans existed get the Trial, as a new owner does.
  await repo.giveToTeamsWithout(db, catalogue.trial);

  const features = createFeatureRegistry();
  features.provide('import-limit', (tx, teamId, since) => repo.recordedUses(tx, teamId, 'import-limit', since));
  features.provide('import-limit', (tx, teamId) => claimedByRunningImports(tx, teamId));
  // Beside the leads module's count of leads, in the same statement: one snapshot, so a chunk an
  // import publishes meanwhile is counted once, as claimed or as added.
  features.provide('lead-limit', (tx, teamId) => leadsClaimedNotAdded(tx, teamId));
  const limits = createLimits({ repo, catalogue, features });
  const service = createPlansService({ db, catalogue, prices, repo, features, limits });
  const importAllowance = createImportAllowance({ db, repo, limits, features });

  return {
    service,
    catalogue,
    prices: { smsPart: prices.smsPart, lookup: prices.lookup },
    features: {
      provide: (slug: TFeatureSlug, provider: UsageProvider) => features.provide(slug, provider),
      provideConsumer: (slug: TFeatureSlug, consumer: FeatureConsumer) => features.provideConsumer(slug, consumer),
    },
    limits: { assertCanCreate: limits.assertCanCreate, historySince: limits.historySince },
    subscriptions: {
      active: (teamId: number) => service.activeSubscriptions(teamId),
      startTrial: service.startTrial,
      activate: service.activate,
      dueForRenewal: service.dueForRenewal,
      renew: service.renew,
      end: service.end,
    },
    importAllowance,
    routes: (app: FastifyInstance) => plansRoutes(app, { plans: service }),
  };
}
export type PlansModule = Awaited<ReturnType<typeof createPlansModule>>;
