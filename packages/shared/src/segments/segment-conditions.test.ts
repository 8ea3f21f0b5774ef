import { describe, expect, it } from 'vitest';
import {
  isConditionComplete,
  listFilterEnabled,
  parentRuleError,
  sourceFilterEnabled,
  ZSegmentCondition,
  ZSegmentConditions,
} from './segment-conditions.ts';

describe('filter conditions', () => {
  it('needs an operator, and values unless empty/not_empty', () => {
    expect(isConditionComplete({ id: 5, values: ['a'] })).toBe(false);
    expect(isConditionComplete({ id: 5, operator: 'contains', values: [] })).toBe(false);
    expect(isConditionComplete({ id: 5, operator: 'contains', values: [''] })).toBe(false);
    expect(isConditionComplete({ id: 5, operator: 'empty' })).toBe(true);
    expect(isConditionComplete({ id: '5', operator: 'not_empty', values: [] })).toBe(true);
    expect(isConditionComplete({ operator: 'eq', values: ['1'] })).toBe(false);
  });

  it('keeps each kind to its operators and values', () => {
    expect(isConditionComplete({ id: 'source', operator: 'unique', values: [3] })).toBe(true);
    expect(isConditionComplete({ id: 'source', operator: 'first_appeared_in_list', values: [3] })).toBe(false);
    expect(isConditionComplete({ id: 'list', operator: 'first_appeared_in_list', values: [3] })).toBe(true);
    expect(isConditionComplete({ id: 'list', operator: 'first_appeared_in_list', values: [3, 4] })).toBe(false);
    expect(isConditionComplete({ id: 'status', operator: 'eq', values: ['blacklisted'] })).toBe(true);
    expect(isConditionComplete({ id: 'status', operator: 'eq', values: ['gone'] })).toBe(false);
    expect(isConditionComplete({ id: 'status', operator: 'contains', values: ['active'] })).toBe(false);
    expect(isConditionComplete({ id: 'duplicates', operator: 'not_eq', values: ['0'] })).toBe(true);
    expect(isConditionComplete({ id: 'duplicates', operator: 'eq', values: ['many'] })).toBe(false);
    expect(isConditionComplete({ id: 'source', operator: 'eq', values: ['1 or 1=1'] })).toBe(false);
    // The results filters (decision 039): the spec's values and operators only.
    expect(isConditionComplete({ id: 'sms_status', operator: 'eq', values: ['sent'] })).toBe(true);
    expect(isConditionComplete({ id: 'sms_status', operator: 'not_eq', values: ['undelivered'] })).toBe(false);
    expect(isConditionComplete({ id: 'engagement', operator: 'not_eq', values: ['unsubscribe'] })).toBe(true);
    expect(isConditionComplete({ id: 'engagement', operator: 'contains', values: ['engaged'] })).toBe(false);
    expect(isConditionComplete({ id: 'engagement_period', operator: 'eq', values: ['last_30_days'] })).toBe(true);
    expect(isConditionComplete({ id: 'engagement_period', operator: 'not_eq', values: ['all_time'] })).toBe(false);
    expect(isConditionComplete({ id: 'engagement_period', operator: 'eq', values: ['24_hours', 'all_time'] })).toBe(
      false,
    );
    expect(isConditionComplete({ id: 'campaigns', operator: 'not_eq', values: [7, 8] })).toBe(true);
    expect(isConditionComplete({ id: 'campaigns', operator: 'unique', values: [7] })).toBe(false);
    expect(isConditionComplete({ id: 'attribute', operator: 'eq', values: ['x'] })).toBe(false);
  });

  it('offers engagement period only beside engaged, and each results filter once', () => {
    const engaged = { id: 'engagement', operator: 'eq', values: ['engaged', 'unsubscribe'] };
    const period = { id: 'engagement_period', operator: 'eq', values: ['24_hours'] };
    expect(ZSegmentConditions.safeParse([engaged, period]).success).toBe(true);
    expect(ZSegmentConditions.safeParse([period]).success).toBe(false);
    expect(ZSegmentConditions.safeParse([{ ...engaged, values: ['unsubscribe'] }, period]).success).toBe(false);
    expect(ZSegmentConditions.safeParse([{ ...engaged, operator: 'not_eq' }, period]).success).toBe(false);
    const sent = { id: 'sms_status', operator: 'eq', values: ['sent'] };
    expect(ZSegmentConditions.safeParse([sent, { ...sent, values: ['failed'] }]).success).toBe(false);
  });

  it('reads attribute ids as numbers and drops values of presence tests', () => {
    expect(ZSegmentCondition.parse({ id: '12', operator: 'empty', values: ['x'] })).toEqual({
      id: 12,
      operator: 'empty',
      values: [],
    });
  });

  it('allows one source and one list, a list only after a source with values', () => {
    const source = { id: 'source', operator: 'eq', values: [1] };
    const list = { id: 'list', operator: 'eq', values: [2] };
    expect(ZSegmentConditions.safeParse([source, list]).success).toBe(true);
    expect(ZSegmentConditions.safeParse([list]).success).toBe(false);
    expect(ZSegmentConditions.safeParse([source, source]).success).toBe(false);
    expect(ZSegmentConditions.safeParse([source, list, list]).success).toBe(false);
  });

  it('enables source and list filters as the spec says', () => {
    const source = { id: 'source', values: ['1'] };
    expect(sourceFilterEnabled([], false)).toBe(true);
    expect(sourceFilterEnabled([source], false)).toBe(false);
    expect(sourceFilterEnabled([], true)).toBe(false);
    expect(listFilterEnabled([], false)).toBe(false);
    expect(listFilterEnabled([{ id: 'source', values: [] }], false)).toBe(false);
    expect(listFilterEnabled([source], false)).toBe(true);
    expect(listFilterEnabled([source], true)).toBe(false);
    expect(listFilterEnabled([source, { id: 'list', values: ['2'] }], false)).toBe(false);
    expect(parentRuleError([source], true)).not.toBeNull();
    expect(parentRuleError([{ id: 7 }], true)).toBeNull();
  });
});
