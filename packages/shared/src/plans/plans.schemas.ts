import { z } from 'zod';

/**
 * Plans, their features and the team's subscription (spec sections 1, 3, 7; decision 015). The
 * catalogue is a file the installation may replace (`HERALD_PLANS_FILE`), validated by
 * `ZPlanCatalogue` at start; the API answers `ZSubscriptionsResponse`.
 */

/** Features with a yes/no value. */
export const FLAG_FEATURES = ['manage-team', 'short-url-domain'] as const;
/** Features counted against a number (null: unlimited). Per period for the two spent ones. */
export const COUNTED_FEATURES = [
  'alpha-name-limit',
  'free-sms-limit',
  'import-limit',
  'lead-limit',
  'audience-limit',
  'source-limit',
  'list-limit',
  'team-member-limit',
  'history-days',
  'attribute-limit',
] as const;
/** Spent within the subscription's period (a month): usage starts again with each period. */
export const PERIOD_FEATURES = ['free-sms-limit', 'import-limit'] as const;

export const FEATURE_SLUGS = [...FLAG_FEATURES, ...COUNTED_FEATURES] as const;
export const ZFeatureSlug = z.enum(FEATURE_SLUGS);
export type TFeatureSlug = z.infer<typeof ZFeatureSlug>;
export type TFlagFeature = (typeof FLAG_FEATURES)[number];
export type TCountedFeature = (typeof COUNTED_FEATURES)[number];

export const isFlagFeature = (slug: TFeatureSlug): slug is TFlagFeature =>
  (FLAG_FEATURES as readonly string[]).includes(slug);

/** A feature's value: true/false for a flag, a count, or null for unlimited. */
export const ZFeatureValue = z.union([z.boolean(), z.number().int().min(0), z.null()]);
export type TFeatureValue = z.infer<typeof ZFeatureValue>;

export const LANGUAGES = ['uk', 'en', 'ru'] as const;
/** A text in each language of the app; the web shows the one of the chosen language. */
export const ZLocalized = z.object({
  uk: z.string().min(1).max(500),
  en: z.string().min(1).max(500),
  ru: z.string().min(1).max(500),
});
export type TLocalized = z.infer<typeof ZLocalized>;

export const CURRENCIES = ['UAH', 'USD', 'EUR'] as const;
export const ZCurrency = z.enum(CURRENCIES);
export type TCurrency = z.infer<typeof ZCurrency>;

/** Every feature must be given a value: a file that forgets one is refused at start. */
const ZCatalogueFeatures = z.strictObject({
  'manage-team': z.boolean(),
  'short-url-domain': z.boolean(),
  'alpha-name-limit': z.number().int().min(0).nullable(),
  'free-sms-limit': z.number().int().min(0).nullable(),
  'import-limit': z.number().int().min(0).nullable(),
  'lead-limit': z.number().int().min(0).nullable(),
  'audience-limit': z.number().int().min(0).nullable(),
  'source-limit': z.number().int().min(0).nullable(),
  'list-limit': z.number().int().min(0).nullable(),
  'team-member-limit': z.number().int().min(1).nullable(),
  'history-days': z.number().int().min(1).nullable(),
  'attribute-limit': z.number().int().min(0).nullable(),
});
export type TCatalogueFeatures = z.infer<typeof ZCatalogueFeatures>;

/** One plan of the catalogue file. */
export const ZCataloguePlan = z.strictObject({
  id: z.number().int().positive(),
  slug: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'use lower-case letters, digits and dashes')
    .max(60),
  name: ZLocalized,
  description: ZLocalized,
  /** Minor units (kopiyky, cents) a period; null: no price shown ('Contact us'). */
  price: z.number().int().min(0).nullable(),
  currency: ZCurrency,
  /** Length of one period; a month unless said otherwise. */
  period: z
    .strictObject({ months: z.number().int().min(0).max(12), days: z.number().int().min(0).max(366) })
    .refine((p) => p.months > 0 || p.days > 0, 'a period must be at least one day'),
  /** The plan every new team owner gets; hidden from the list of plans. Exactly one. */
  trial: z.boolean().default(false),
  features: ZCatalogueFeatures,
});
export type TCataloguePlan = z.infer<typeof ZCataloguePlan>;

export const ZPlanCatalogue = z.strictObject({
  plans: z
    .array(ZCataloguePlan)
    .min(1)
    .superRefine((plans, ctx) => {
      const seen = (key: 'id' | 'slug') => {
        const values = plans.map((p) => p[key]);
        values.forEach((v, i) => {
          if (values.indexOf(v) !== i)
            ctx.addIssue({ code: 'custom', path: [i, key], message: `duplicate ${key} ${v}` });
        });
      };
      seen('id');
      seen('slug');
      if (plans.filter((p) => p.trial).length !== 1) {
        ctx.addIssue({ code: 'custom', path: [], message: 'exactly one plan must have "trial": true' });
      }
    }),
});
export type TPlanCatalogue = z.infer<typeof ZPlanCatalogue>;

/** A feature of a plan as the list shows it. */
export const ZPlanFeature = z.object({ slug: ZFeatureSlug, value: ZFeatureValue });
export type TPlanFeature = z.infer<typeof ZPlanFeature>;

/** A plan the team may buy (`available_plans`); Enterprise has no price and no button. */
export const ZPlan = z.object({
  id: z.number(),
  slug: z.string(),
  name: ZLocalized,
  description: ZLocalized,
  price: z.number().nullable(),
  currency: ZCurrency,
  /** 'Contact us' instead of the price and the button. */
  contact_us: z.boolean(),
  period: z.object({ months: z.number(), days: z.number() }),
  features: z.array(ZPlanFeature),
});
export type TPlan = z.infer<typeof ZPlan>;

/**
 * A feature of the active subscription, computed from the data at the moment of asking. A flag
 * shows '+'/'-'; a count shows usage/value. Unlimited: value, remaining null.
 */
export const ZSubscriptionFeature = z.object({
  slug: ZFeatureSlug,
  value: ZFeatureValue,
  feature_usage: z.number().nullable(),
  feature_remaining: z.number().nullable(),
  can_use_feature: z.boolean(),
});
export type TSubscriptionFeature = z.infer<typeof ZSubscriptionFeature>;

export const ZActiveSubscription = z.object({
  id: z.number(),
  plan_id: z.number(),
  slug: z.string(),
  name: ZLocalized,
  price: z.number().nullable(),
  currency: ZCurrency,
  trial: z.boolean(),
  /** The current period's start: period features (SMS, imports) count from here. */
  period_starts_at: z.string(),
  ends_at: z.string(),
  features: z.array(ZSubscriptionFeature),
});
export type TActiveSubscription = z.infer<typeof ZActiveSubscription>;

export const ZPriceListAnswer = z.object({
  currency: ZCurrency,
  /** Minor units per SMS part, by destination country (ISO 3166-1 alpha-2) and for any other. */
  sms_part: z.object({ default: z.number(), countries: z.record(z.string(), z.number()) }),
  lookup: z.number(),
});
export type TPriceListAnswer = z.infer<typeof ZPriceListAnswer>;

/** `GET /api/subscriptions`. */
export const ZSubscriptionsResponse = z.object({
  available_plans: z.array(ZPlan),
  active_subscriptions: z.array(ZActiveSubscription),
  /** What an SMS part and a lookup cost, in each currency. */
  prices: z.array(ZPriceListAnswer),
});
export type TSubscriptionsResponse = z.infer<typeof ZSubscriptionsResponse>;

/** `POST /api/subscriptions/test`: spends 10 of a feature (spec: send 10 SMS, import 10 contacts). */
export const SUBSCRIPTION_TEST_KEYS = ['send-sms', 'import-contacts'] as const;
export const ZSubscriptionTestRequest = z.object({ key: z.enum(SUBSCRIPTION_TEST_KEYS) });
export type TSubscriptionTestRequest = z.infer<typeof ZSubscriptionTestRequest>;
export const ZSubscriptionTestResponse = z.object({ message: z.string(), code: z.string() });
export const SUBSCRIPTION_TEST_AMOUNT = 10;

/**
 * The refusals of a plan (422), each with a `detail` naming the feature: the web shows
 * `messages:<detail.code>` with `{limit}` (the plan's value).
 */
export const PLAN_ERROR_CODES = ['plan_limit_reached', 'plan_feature_missing', 'subscription_required'] as const;
export type TPlanErrorCode = (typeof PLAN_ERROR_CODES)[number];
