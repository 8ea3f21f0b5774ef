import { z } from 'zod';
import { ENGAGEMENT_VALUES, SMS_STATUSES } from '../campaigns/campaign-results.ts';
import { LEAD_STATUSES } from '../leads/leads.schemas.ts';
import { CARRIER_TYPES } from '../lookups/lookups.schemas.ts';

/** The line types the carrier_type filter takes (the lookups' one vocabulary). */
export { CARRIER_TYPES };
import { messageText, type TMessageCode } from '../common/messages.ts';

/**
 * The filter conditions of an audience (spec sections 3 and 5), shared by the editor and the server.
 * Each condition names a kind by its `id` (a fixed name, or a lead attribute's numeric id), an
 * operator and values. Kinds are a table: a later kind (carrier_name, engagement, sms_status, …)
 * is one more entry here and one more compiler on the server, without touching the others.
 */
export const FILTER_OPERATORS = [
  'eq',
  'not_eq',
  'unique',
  'first_appeared_in_list',
  'contains',
  'not_contains',
  'empty',
  'not_empty',
] as const;
export const ZFilterOperator = z.enum(FILTER_OPERATORS);
export type TFilterOperator = z.infer<typeof ZFilterOperator>;

/** How far back engagement_period looks (spec section 4); all_time sets no bound. */
export const ENGAGEMENT_PERIODS = [
  '24_hours',
  'last_7_days',
  'last_30_days',
  'last_90_days',
  'this_month',
  'this_year',
  'all_time',
] as const;
export type TEngagementPeriod = (typeof ENGAGEMENT_PERIODS)[number];

/** How a kind's values are read: ids of rows, a fixed vocabulary, counts, or free text. */
type ValueRule = { kind: 'ids' } | { kind: 'enum'; allowed: readonly string[] } | { kind: 'count' } | { kind: 'text' };

export interface ConditionKindRule {
  operators: readonly TFilterOperator[];
  values: ValueRule;
  /** Operators that take exactly one value. */
  singleValue?: readonly TFilterOperator[];
}

export const CONDITION_KINDS = {
  source: { operators: ['eq', 'not_eq', 'unique'], values: { kind: 'ids' } },
  list: {
    operators: ['eq', 'not_eq', 'unique', 'first_appeared_in_list'],
    values: { kind: 'ids' },
    singleValue: ['first_appeared_in_list'],
  },
  status: { operators: ['eq', 'not_eq'], values: { kind: 'enum', allowed: LEAD_STATUSES } },
  duplicates: { operators: ['eq', 'not_eq'], values: { kind: 'count' } },
  // Results of campaigns (decision 039): a lead's campaign messages, clicks and unsubscribes.
  sms_status: { operators: ['eq', 'not_eq'], values: { kind: 'enum', allowed: SMS_STATUSES } },
  engagement: { operators: ['eq', 'not_eq'], values: { kind: 'enum', allowed: ENGAGEMENT_VALUES } },
  engagement_period: {
    operators: ['eq'],
    values: { kind: 'enum', allowed: ENGAGEMENT_PERIODS },
    singleValue: ['eq'],
  },
  campaigns: { operators: ['eq', 'not_eq'], values: { kind: 'ids' } },
  // Lookup results of a lead's phones (decision 041): the carrier as the provider names it, and the
  // line type in the one vocabulary of every provider.
  carrier_name: {
    operators: ['contains', 'not_contains', 'eq', 'not_eq', 'empty', 'not_empty'],
    values: { kind: 'text' },
  },
  carrier_type: {
    operators: ['eq', 'not_eq', 'empty', 'not_empty'],
    values: { kind: 'enum', allowed: CARRIER_TYPES },
  },
  attribute: {
    operators: ['contains', 'not_contains', 'eq', 'not_eq', 'empty', 'not_empty'],
    values: { kind: 'text' },
  },
} as const satisfies Record<string, ConditionKindRule>;
export type TConditionKind = keyof typeof CONDITION_KINDS;

/** Operators that test presence and take no values. */
export const VALUELESS_OPERATORS: readonly TFilterOperator[] = ['empty', 'not_empty'];

/** The kind a condition id names: a fixed kind, or `attribute` for a lead attribute's id. */
export function conditionKind(id: string | number): TConditionKind | undefined {
  if (typeof id === 'number' || /^\d+$/.test(id)) return Number(id) > 0 ? 'attribute' : undefined;
  return id !== 'attribute' && Object.hasOwn(CONDITION_KINDS, id) ? (id as TConditionKind) : undefined;
}

const MAX_VALUES = 1_000;

export const ZSegmentCondition = z
  .object({
    // An attribute's id arrives as a number or a string of digits; it is kept as a number.
    id: z.union([
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      z
        .string()
        .max(40)
        .transform((v) => (/^\d+$/.test(v) ? Number(v) : v)),
    ]),
    operator: ZFilterOperator,
    values: z
      .array(z.union([z.string().trim().max(500), z.number().finite()]).transform(String))
      .max(MAX_VALUES)
      .default([]),
    /** The attribute's type or the kind's name, as the editor shows it; informational only. */
    type: z.string().max(40).optional(),
  })
  .superRefine((c, ctx) => {
    const kind = conditionKind(c.id);
    if (!kind) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: messageText('unknown_filter') });
      return;
    }
    const rule: ConditionKindRule = CONDITION_KINDS[kind];
    if (!rule.operators.includes(c.operator)) {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: messageText('filter_operator', { operator: c.operator }),
      });
      return;
    }
    const values = c.values.filter((v) => v !== '');
    if (VALUELESS_OPERATORS.includes(c.operator)) return;
    if (values.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['values'], message: messageText('filter_values_required') });
      return;
    }
    if (rule.singleValue?.includes(c.operator) && values.length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['values'], message: messageText('filter_one_value') });
    }
    const bad = values.find((v) => !valueFits(rule.values, v));
    if (bad !== undefined)
      ctx.addIssue({ code: 'custom', path: ['values'], message: messageText('filter_value_invalid', { value: bad }) });
  })
  .transform((c) => ({
    ...c,
    // Empty strings are dropped; presence tests keep no values.
    values: VALUELESS_OPERATORS.includes(c.operator) ? [] : [...new Set(c.values.filter((v) => v !== ''))],
  }));
export type TSegmentCondition = z.output<typeof ZSegmentCondition>;
export type TSegmentConditionInput = z.input<typeof ZSegmentCondition>;

function valueFits(rule: ValueRule, value: string): boolean {
  switch (rule.kind) {
    case 'ids':
      return /^\d{1,15}$/.test(value) && Number(value) > 0;
    case 'count':
      return /^\d{1,9}$/.test(value);
    case 'enum':
      return rule.allowed.includes(value);
    case 'text':
      return value.length > 0;
  }
}

const has = (conditions: readonly { id: string | number }[], id: string) => conditions.some((c) => c.id === id);

/** Source filter enabled: none yet, and the segment is an audience (a child narrows its parent). */
export function sourceFilterEnabled(conditions: readonly { id: string | number }[], hasParent: boolean): boolean {
  return !hasParent && !has(conditions, 'source');
}

/** List filter enabled: none yet, no parent, and a source filter with chosen values. */
export function listFilterEnabled(
  conditions: readonly { id: string | number; values?: readonly unknown[] }[],
  hasParent: boolean,
): boolean {
  if (hasParent || has(conditions, 'list')) return false;
  return conditions.some((c) => c.id === 'source' && (c.values?.length ?? 0) > 0);
}

/** The kinds a condition list holds at most once (each narrows the others; decision 039). */
export const ONCE_ONLY_KINDS = [
  'source',
  'list',
  'sms_status',
  'engagement',
  'engagement_period',
  'campaigns',
] as const;

/** Engagement Period enabled only when an engagement filter includes engaged (spec section 5). */
export function engagementPeriodEnabled(
  conditions: readonly { id: string | number; operator?: string | null; values?: readonly unknown[] }[],
): boolean {
  return conditions.some((c) => c.id === 'engagement' && c.operator === 'eq' && (c.values ?? []).includes('engaged'));
}

/** An editor row is sent only with an id, an operator of its kind and (unless valueless) values. */
export function isConditionComplete(row: { id?: unknown; operator?: unknown; values?: unknown }): boolean {
  return ZSegmentCondition.safeParse(row).success;
}

/**
 * The whole list: each condition valid, at most one source and one list filter, a list filter only
 * beside a source filter with values. `hasParent` is checked by the server, which knows the segment.
 */
export const ZSegmentConditions = z
  .array(ZSegmentCondition)
  .max(50)
  .superRefine((conditions, ctx) => {
    for (const id of ['source', 'list']) {
      if (conditions.filter((c) => c.id === id).length > 1) {
        ctx.addIssue({
          code: 'custom',
          message: messageText(id === 'source' ? 'one_source_filter' : 'one_list_filter'),
        });
      }
    }
    for (const id of ONCE_ONLY_KINDS.slice(2)) {
      if (conditions.filter((c) => c.id === id).length > 1) {
        ctx.addIssue({ code: 'custom', message: messageText('one_filter_of_kind') });
      }
    }
    if (has(conditions, 'engagement_period') && !engagementPeriodEnabled(conditions)) {
      ctx.addIssue({ code: 'custom', message: messageText('engagement_period_needs_engaged') });
    }
    if (has(conditions, 'list') && !conditions.some((c) => c.id === 'source' && c.values.length > 0)) {
      ctx.addIssue({ code: 'custom', message: messageText('source_before_list') });
    }
  });
export type TSegmentConditions = z.output<typeof ZSegmentConditions>;

/** Why a condition list cannot be saved on a segment with a parent, or null. */
export function parentRuleError(
  conditions: readonly { id: string | number }[],
  hasParent: boolean,
): TMessageCode | null {
  if (hasParent && (has(conditions, 'source') || has(conditions, 'list'))) return 'segment_parent_filters';
  return null;
}
