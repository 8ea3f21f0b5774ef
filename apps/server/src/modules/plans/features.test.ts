import { describe, expect, it } from 'vitest';
import { featureState, fits, remainingOf } from './features.ts';

describe('limit arithmetic', () => {
  it('a count shows usage, what is left and whether one more fits', () => {
    expect(featureState('source-limit', 5, 3)).toEqual({
      slug: 'source-limit',
      value: 5,
      feature_usage: 3,
      feature_remaining: 2,
      can_use_feature: true,
    });
    expect(featureState('source-limit', 5, 5)).toMatchObject({ feature_remaining: 0, can_use_feature: false });
  });

  it('never shows less than nothing left, when a smaller plan follows a bigger one', () => {
    expect(featureState('lead-limit', 1000, 4000)).toMatchObject({ feature_remaining: 0, can_use_feature: false });
    expect(remainingOf(1000, 4000)).toBe(0);
  });

  it('unlimited: usage shown, nothing to run out of', () => {
    expect(featureState('import-limit', null, 12_345)).toEqual({
      slug: 'import-limit',
      value: null,
      feature_usage: 12_345,
      feature_remaining: null,
      can_use_feature: true,
    });
    expect(fits(null, 10 ** 9, 10 ** 9)).toBe(true);
    expect(remainingOf(null, 5)).toBeNull();
  });

  it('a flag is + or -, without usage', () => {
    expect(featureState('manage-team', true, 0)).toMatchObject({ feature_usage: null, can_use_feature: true });
    expect(featureState('short-url-domain', false, 0)).toMatchObject({ can_use_feature: false });
  });

  it('history is a setting, not a count', () => {
    expect(featureState('history-days', 30, 0)).toMatchObject({ feature_usage: null, feature_remaining: null });
  });

  it('an amount fits when usage plus the amount stays within the value', () => {
    expect(fits(10, 0, 10)).toBe(true);
    expect(fits(10, 1, 10)).toBe(false);
    expect(fits(10, 9, 1)).toBe(true);
    expect(fits(0, 0, 1)).toBe(false);
  });
});
