import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import {
  CONDITION_KINDS,
  conditionKind,
  engagementPeriodEnabled,
  listFilterEnabled,
  ONCE_ONLY_KINDS,
  sourceFilterEnabled,
  type TConditionKind,
  type TFilterOperator,
  type TSegmentCondition,
  VALUELESS_OPERATORS,
  ZSegmentCondition,
  ZSegmentConditions,
} from '@herald/shared/segments/segment-conditions';
import type { TSegment } from '@herald/shared/segments/segments.schemas';

/** One row of the filter editor, as the user is filling it in. */
export interface FilterRow {
  key: number;
  /** '' until chosen; 'source', 'list', 'status', 'duplicates' or an attribute's id as digits. */
  id: string;
  operator: TFilterOperator | null;
  values: string[];
}

let nextKey = 1;
export const newRow = (): FilterRow => ({ key: nextKey++, id: '', operator: null, values: [] });

export function rowsFromFilters(filters: TSegment['filters']): FilterRow[] {
  return filters.map((f) => ({
    key: nextKey++,
    id: String(f.id),
    operator: f.operator as TFilterOperator,
    values: f.values,
  }));
}

export const kindOf = (row: Pick<FilterRow, 'id'>): TConditionKind | undefined =>
  row.id === '' ? undefined : conditionKind(row.id);

export const operatorsOf = (row: FilterRow): readonly TFilterOperator[] => {
  const kind = kindOf(row);
  return kind ? CONDITION_KINDS[kind].operators : [];
};

export const isValueless = (operator: TFilterOperator | null) =>
  operator !== null && VALUELESS_OPERATORS.includes(operator);

export const takesOneValue = (row: FilterRow) => {
  const kind = kindOf(row);
  const rule = kind ? CONDITION_KINDS[kind] : undefined;
  const single: readonly TFilterOperator[] = rule && 'singleValue' in rule ? rule.singleValue : [];
  return row.operator !== null && single.includes(row.operator);
};

/** The shared schema's verdict on one row: its condition, or the message code of why it is not ready. */
export function checkRow(row: FilterRow): { condition: TSegmentCondition } | { error: string } {
  if (!row.id) return { error: 'filter_required' };
  if (!row.operator) return { error: 'operator_required' };
  const parsed = ZSegmentCondition.safeParse({ id: row.id, operator: row.operator, values: row.values });
  if (parsed.success) return { condition: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? 'filter_values_required' };
}

/** The conditions sent on save: only valid rows (spec section 5), checked as a list by the same schema. */
export function conditionsOf(rows: FilterRow[]) {
  const conditions = rows.flatMap((r) => {
    const result = checkRow(r);
    return 'condition' in result ? [result.condition] : [];
  });
  const list = ZSegmentConditions.safeParse(conditions);
  return {
    conditions,
    invalidRows: rows.length - conditions.length,
    listError: list.success ? null : (list.error.issues[0]?.message ?? null),
  };
}

/**
 * Which filters a row may switch to: source and list follow the spec's enabling rules, the results
 * filters are there once each, and Engagement Period only beside an engagement that includes engaged.
 */
export function filterEnabled(id: string, rows: FilterRow[], self: FilterRow, hasParent: boolean): boolean {
  const others = rows.filter((r) => r.key !== self.key);
  if (id === 'source') return sourceFilterEnabled(others, hasParent);
  if (id === 'list') return listFilterEnabled(others, hasParent);
  if ((ONCE_ONLY_KINDS as readonly string[]).includes(id) && others.some((r) => r.id === id)) return false;
  if (id === 'engagement_period') return engagementPeriodEnabled(others);
  return true;
}

export const FIXED_FILTERS = [
  'source',
  'list',
  'status',
  'duplicates',
  'sms_status',
  'engagement',
  'engagement_period',
  'campaigns',
  'carrier_name',
  'carrier_type',
] as const;

export function filterChoices(attributes: TLeadAttribute[]) {
  return [
    ...FIXED_FILTERS.map((id) => ({ id, attribute: undefined })),
    ...attributes.map((a) => ({ id: String(a.id), attribute: a })),
  ];
}

/** The source row's values decide which lists the list filter offers. */
export function sourceRowOf(rows: FilterRow[]) {
  return rows.find((r) => r.id === 'source');
}

export function sameConditions(a: FilterRow[], b: FilterRow[]) {
  const norm = (rows: FilterRow[]) => JSON.stringify(rows.map((r) => [r.id, r.operator, r.values]));
  return norm(a) === norm(b);
}
