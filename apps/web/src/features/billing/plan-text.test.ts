import type { TSubscriptionFeature } from '@herald/shared/plans/plans.schemas';
import { describe, expect, it } from 'vitest';
import { historyDaysOf, localized, planFeatureText, subscriptionFeatureText, usagePercent } from './plan-text.ts';

const fmt = (n: number) => n.toLocaleString('en');
const feature = (value: TSubscriptionFeature['value'], usage: number | null): TSubscriptionFeature => ({
  slug: 'import-limit',
  value,
  feature_usage: usage,
  feature_remaining: typeof value === 'number' ? value - (usage ?? 0) : null,
  can_use_feature: true,
});

describe('plan texts', () => {
  it('pick the chosen language, English for an unknown one', () => {
    const name = { uk: 'Базовий', en: 'Basic', ru: 'Базовый' };
    expect(localized(name, 'ru')).toBe('Базовый');
    expect(localized(name, 'de')).toBe('Basic');
  });

  it("show a plan's flags as + and -, counts as numbers and no limit as ∞", () => {
    expect(planFeatureText(true, fmt)).toBe('+');
    expect(planFeatureText(false, fmt)).toBe('-');
    expect(planFeatureText(10000, fmt)).toBe('10,000');
    expect(planFeatureText(null, fmt)).toBe('∞');
  });

  it('show the active subscription as usage/value (spec section 3)', () => {
    expect(subscriptionFeatureText(feature(true, null), fmt)).toBe('+');
    expect(subscriptionFeatureText(feature(false, null), fmt)).toBe('-');
    expect(subscriptionFeatureText(feature(5000, 1234), fmt)).toBe('1,234/5,000');
    expect(subscriptionFeatureText(feature(null, 7), fmt)).toBe('7/∞');
    // history-days is a setting, not a count: its days alone.
    expect(subscriptionFeatureText(feature(14, null), fmt)).toBe('14');
  });

  it('read how many days back the plan in force shows histories', () => {
    const history = (value: number | null) => ({ ...feature(value, null), slug: 'history-days' as const });
    expect(historyDaysOf([{ features: [feature(5, 1), history(14)] }])).toBe(14);
    expect(historyDaysOf([{ features: [history(null)] }])).toBeNull();
    expect(historyDaysOf([])).toBeNull();
    expect(historyDaysOf(undefined)).toBeNull();
  });

  it('measure usage in floored percent, full at a zero limit, none when unlimited', () => {
    expect(usagePercent(feature(300, 299))).toBe(99);
    expect(usagePercent(feature(0, 0))).toBe(100);
    expect(usagePercent(feature(10, 50))).toBe(100);
    expect(usagePercent(feature(null, 3))).toBeNull();
    expect(usagePercent(undefined)).toBeNull();
  });
});
