import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { ENGAGEMENT_VALUES, SMS_STATUSES } from '@herald/shared/campaigns/campaign-results';
import { LEAD_STATUSES } from '@herald/shared/leads/leads.schemas';
import { CARRIER_TYPES } from '@herald/shared/lookups/lookups.schemas';
import { ENGAGEMENT_PERIODS, type TFilterOperator } from '@herald/shared/segments/segment-conditions';
import type { TSourceWithLists } from '@herald/shared/sources/sources.schemas';
import { ActionIcon, Group, MultiSelect, Select, TagsInput, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useCompletedCampaigns } from '../api/get-completed-campaigns.ts';
import {
  checkRow,
  type FilterRow,
  filterChoices,
  filterEnabled,
  isValueless,
  kindOf,
  operatorsOf,
  sourceRowOf,
  takesOneValue,
} from './filter-rows.ts';

interface Props {
  row: FilterRow;
  rows: FilterRow[];
  index: number;
  attributes: TLeadAttribute[];
  sources: TSourceWithLists[];
  hasParent: boolean;
  disabled: boolean;
  /** Errors show once the user has tried to save or touched the row. */
  showError: boolean;
  onChange: (row: FilterRow) => void;
  onRemove: () => void;
}

/** One condition: filter, operator, values (spec section 5). */
export function FilterRowEditor({
  row,
  rows,
  index,
  attributes,
  sources,
  hasParent,
  disabled,
  showError,
  onChange,
  onRemove,
}: Props) {
  const { t } = useTranslation('segments');
  const n = index + 1;
  const kind = kindOf(row);
  const check = checkRow(row);
  const campaigns = useCompletedCampaigns(kind === 'campaigns');
  const error = showError && 'error' in check ? translateMessage(check.error) : undefined;

  const filterData = filterChoices(attributes).map((c) => ({
    value: c.id,
    label: c.attribute ? attributeLabel(c.attribute) : t(`filter.${c.id}`),
    disabled: c.id !== row.id && !filterEnabled(c.id, rows, row, hasParent),
  }));
  const operatorData = operatorsOf(row).map((op) => ({
    value: op,
    label: t(`operator.${kind === 'attribute' || kind?.startsWith('carrier_') ? 'text' : 'set'}.${op}`),
  }));

  const setFilter = (id: string | null) => {
    const next = id ?? '';
    const ops = operatorsOf({ ...row, id: next });
    onChange({ ...row, id: next, operator: ops[0] ?? null, values: [] });
  };
  const setOperator = (op: string | null) => {
    const operator = (op as TFilterOperator | null) ?? null;
    const values = isValueless(operator)
      ? []
      : takesOneValue({ ...row, operator })
        ? row.values.slice(0, 1)
        : row.values;
    onChange({ ...row, operator, values });
  };
  const setValues = (values: string[]) => onChange({ ...row, values });

  const valuesLabel = t('valuesOf', { n });
  let valuesInput: React.ReactNode = null;
  if (kind && !isValueless(row.operator)) {
    const common = { 'aria-label': valuesLabel, disabled, error: error ? ' ' : undefined, flex: 1, miw: 220 };
    if (kind !== 'attribute' && kind !== 'duplicates' && kind !== 'carrier_name') {
      const data =
        kind === 'source' || kind === 'list' || kind === 'status'
          ? valueOptions(kind, row, rows, sources, (s) => t(`leads:status.${s}`))
          : resultOptions(kind, row, campaigns.data?.data ?? [], t);
      valuesInput = takesOneValue(row) ? (
        <Select
          {...common}
          data={data}
          value={row.values[0] ?? null}
          onChange={(v) => setValues(v ? [v] : [])}
          searchable
          placeholder={t('chooseOne')}
          nothingFoundMessage={kind === 'campaigns' ? t('results.noCampaigns') : undefined}
        />
      ) : (
        <MultiSelect
          {...common}
          data={data}
          value={row.values}
          onChange={setValues}
          searchable
          placeholder={row.values.length ? undefined : t('chooseValues')}
          nothingFoundMessage={kind === 'campaigns' ? t('results.noCampaigns') : undefined}
        />
      );
    } else {
      valuesInput = (
        <TagsInput
          {...common}
          value={row.values}
          onChange={setValues}
          placeholder={row.values.length ? undefined : t(kind === 'duplicates' ? 'typeNumber' : 'typeValue')}
          clearable
          acceptValueOnBlur
        />
      );
    }
  }

  return (
    <div>
      <Group gap="xs" align="flex-start" wrap="wrap">
        <Select
          aria-label={t('filterOf', { n })}
          placeholder={t('chooseFilter')}
          data={filterData}
          value={row.id || null}
          onChange={setFilter}
          disabled={disabled}
          searchable
          w={200}
          error={error && !row.id ? ' ' : undefined}
        />
        <Select
          aria-label={t('operatorOf', { n })}
          placeholder={t('chooseOperator')}
          data={operatorData}
          value={row.operator}
          onChange={setOperator}
          disabled={disabled || !kind}
          allowDeselect={false}
          w={210}
        />
        {valuesInput}
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={t('removeCondition', { n })}
          onClick={onRemove}
          disabled={disabled}
          mt={2}
        >
          <IconX size={16} />
        </ActionIcon>
      </Group>
      {error && (
        <Text size="xs" c="red" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}

/** The results filters' choices (decision 039); a saved campaign no longer finished still shows its id. */
function resultOptions(
  kind: 'sms_status' | 'engagement' | 'engagement_period' | 'campaigns' | 'carrier_type',
  row: FilterRow,
  campaigns: Array<{ id: number; name: string }>,
  t: (key: string) => string,
) {
  // A lookup's line type, in the one vocabulary of every provider (decision 041).
  if (kind === 'carrier_type') return CARRIER_TYPES.map((c) => ({ value: c, label: t(`lookups:carrierType.${c}`) }));
  if (kind === 'sms_status') return SMS_STATUSES.map((s) => ({ value: s, label: t(`results.smsStatus.${s}`) }));
  if (kind === 'engagement') return ENGAGEMENT_VALUES.map((e) => ({ value: e, label: t(`results.engagement.${e}`) }));
  if (kind === 'engagement_period')
    return ENGAGEMENT_PERIODS.map((p) => ({ value: p, label: t(`results.period.${p}`) }));
  const offered = campaigns.map((c) => ({ value: String(c.id), label: c.name }));
  const known = new Set(offered.map((o) => o.value));
  return [...offered, ...row.values.filter((v) => !known.has(v)).map((v) => ({ value: v, label: `#${v}` }))];
}

function valueOptions(
  kind: 'source' | 'list' | 'status',
  row: FilterRow,
  rows: FilterRow[],
  sources: TSourceWithLists[],
  statusLabel: (s: string) => string,
) {
  if (kind === 'status') return LEAD_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }));
  if (kind === 'source') return sources.map((s) => ({ value: String(s.id), label: s.name }));
  // Lists of the chosen sources (or of the others, when the source filter excludes them).
  const sourceRow = sourceRowOf(rows);
  const chosen = new Set(sourceRow?.values ?? []);
  const excluding = sourceRow?.operator === 'not_eq';
  const groups = sources
    .filter((s) => (excluding ? !chosen.has(String(s.id)) : chosen.has(String(s.id))))
    .map((s) => ({ group: s.name, items: s.lists.map((l) => ({ value: String(l.id), label: l.name })) }))
    .filter((g) => g.items.length > 0);
  // A saved list whose source is no longer offered still shows its id rather than vanishing.
  const offered = new Set(groups.flatMap((g) => g.items.map((i) => i.value)));
  const stray = row.values.filter((v) => !offered.has(v)).map((v) => ({ value: v, label: `#${v}` }));
  return stray.length ? [...groups, ...stray] : groups;
}
