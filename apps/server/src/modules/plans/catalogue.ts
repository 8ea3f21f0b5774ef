import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { decodeMessage, englishOf } from '@herald/shared/common/messages';
import { ConfigError } from '../../config.ts';
import {
  FEATURE_SLUGS,
  type TCataloguePlan,
  type TCurrency,
  type TPlan,
  type TPlanCatalogue,
  ZPlanCatalogue,
} from '@herald/shared/plans/plans.schemas';
import { type TPriceList, ZPriceList } from '@herald/shared/plans/prices.schemas';

/** A catalogue or price file that cannot be used: the start stops with this message. */
export class CatalogueError extends ConfigError {}

export const DEFAULT_PLANS_FILE = fileURLToPath(new URL('./default-plans.json', import.meta.url));
export const DEFAULT_PRICES_FILE = fileURLToPath(new URL('./default-prices.json', import.meta.url));

/**
 * Reads and validates a JSON file by its schema. Every refusal names the variable, the file and
 * the field (`plans.2.features.lead-limit`), so an operator can fix the file without reading code.
 */
function readValidated<S extends z.ZodType>(schema: S, file: string, variable: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CatalogueError(`${variable} (${file}) cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // The app's zod error map writes message codes (common/zod-messages.ts): the operator reads English.
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.') || '(file)'}: ${englishOf(decodeMessage(i.message))}`,
    );
    throw new CatalogueError(`${variable} (${file}) is not a valid file:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export interface Catalogue {
  plans: TCataloguePlan[];
  trial: TCataloguePlan;
  byId(id: number): TCataloguePlan | undefined;
  /** The plans a team may be shown (not the Trial), as the API answers them. */
  available(): TPlan[];
}

export function loadCatalogue(file: string | undefined): Catalogue {
  const data: TPlanCatalogue = readValidated(ZPlanCatalogue, file ?? DEFAULT_PLANS_FILE, 'HERALD_PLANS_FILE');
  return catalogueOf(data);
}

export function catalogueOf(data: TPlanCatalogue): Catalogue {
  const byId = new Map(data.plans.map((p) => [p.id, p]));
  const trial = data.plans.find((p) => p.trial) as TCataloguePlan;
  const available = data.plans.filter((p) => !p.trial).map(planAnswer);
  return { plans: data.plans, trial, byId: (id) => byId.get(id), available: () => available };
}

export function planAnswer(p: TCataloguePlan): TPlan {
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    price: p.price,
    currency: p.currency,
    contact_us: p.price === null,
    period: p.period,
    features: FEATURE_SLUGS.map((slug) => ({ slug, value: p.features[slug] })),
  };
}

export interface Prices {
  /** Minor units one SMS part to `countryIso` costs in `currency` (the list's default elsewhere). */
  smsPart(countryIso: string, currency: TCurrency): number;
  /** Minor units one lookup costs in `currency`. */
  lookup(currency: TCurrency): number;
  list: TPriceList;
}

export function loadPrices(file: string | undefined): Prices {
  return pricesOf(readValidated(ZPriceList, file ?? DEFAULT_PRICES_FILE, 'HERALD_PRICES_FILE'));
}

export function pricesOf(list: TPriceList): Prices {
  return {
    list,
    smsPart(countryIso, currency) {
      const prices = list[currency].sms_part;
      return prices.countries[countryIso.toUpperCase()] ?? prices.default;
    },
    lookup: (currency) => list[currency].lookup,
  };
}
