import type { TFeatureValue, TLocalized, TSubscriptionFeature } from '@herald/shared/plans/plans.schemas';

/** A plan's name or description in the chosen language (the catalogue holds all three). */
export function localized(text: TLocalized, language: string): string {
  return text[language as keyof TLocalized] ?? text.en;
}

/**
 * A feature of a plan on its card: a flag is '+' or '-', a count its number, no limit '∞'
 * (spec section 3). `format` writes numbers in the chosen language.
 */
export function planFeatureText(value: TFeatureValue, format: (n: number) => string): string {
  if (value === true) return '+';
  if (value === false) return '-';
  return value === null ? '∞' : format(value);
}

/**
 * A feature of the active subscription (spec section 3): 'false' shows '-', 'true' '+', else
 * usage/value ('∞' when unlimited).
 */
export function subscriptionFeatureText(feature: TSubscriptionFeature, format: (n: number) => string): string {
  if (feature.value === true) return '+';
  if (feature.value === false) return '-';
  const value = feature.value === null ? '∞' : format(feature.value);
  // A setting, not a count (history-days): its value alone.
  if (feature.feature_usage === null) return value;
  return `${format(feature.feature_usage)}/${value}`;
}

/**
 * How many days back the plan in force shows the team's histories (`history-days`, decision 015);
 * null: all of them, or no plan.
 */
export function historyDaysOf(subscriptions: Array<{ features: TSubscriptionFeature[] }> | undefined): number | null {
  const value = subscriptions?.[0]?.features.find((f) => f.slug === 'history-days')?.value;
  return typeof value === 'number' ? value : null;
}

/** Share of a counted feature used, 0–100 (none for flags and unlimited ones). */
export function usagePercent(feature: TSubscriptionFeature | undefined): number | null {
  if (!feature || typeof feature.value !== 'number') return null;
  if (feature.value === 0) return 100;
  return Math.min(100, Math.floor(((feature.feature_usage ?? 0) / feature.value) * 100));
}

/**
 * Free SMS as the header and the profile card both say them: what is left of the plan's total
 * ('15 of 20'; '∞' unlimited), through `billing:header.freeSmsOf`.
 */
export function freeSmsWords(
  remaining: number | null,
  total: number | null,
  format: (n: number) => string,
): { remaining: string; total: string } {
  return { remaining: remaining === null ? '∞' : format(remaining), total: total === null ? '∞' : format(total) };
}
