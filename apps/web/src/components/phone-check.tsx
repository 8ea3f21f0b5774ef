import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import { Group, Text, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconHelpCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const ICON = { valid: IconCircleCheck, invalid: IconCircleX, unknown: IconHelpCircle } as const;
const COLOR = { valid: 'teal', invalid: 'red', unknown: 'gray' } as const;

type Checked = Pick<TLeadValue, 'status_label' | 'carrier_name' | 'carrier_type'>;

/** True when a phone value carries a lookup's result (any of its three fields). */
export const isChecked = (value: Checked) =>
  value.status_label !== null || value.carrier_name !== null || value.carrier_type !== null;

/**
 * What a lookup found of one phone, on one line under its number: valid / invalid / unknown as an
 * icon (its word on hover and for screen readers), then the carrier and the line type. Nothing when
 * the phone was never looked up, so unchecked phones look as they always did.
 */
export function PhoneCheck({ value, size = 'xs' }: { value: Checked; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation('lookups');
  if (!isChecked(value)) return null;
  const label = (value.status_label ?? 'unknown') as keyof typeof ICON;
  const Icon = ICON[label] ?? IconHelpCircle;
  const status = t(`statusLabel.${label}`, { defaultValue: label });
  const type = value.carrier_type ? t(`carrierType.${value.carrier_type}`, { defaultValue: value.carrier_type }) : null;
  const words = [value.carrier_name, type].filter(Boolean).join(' · ');
  return (
    <Group gap={4} wrap="nowrap" data-phone-check={label} data-carrier-type={value.carrier_type ?? undefined}>
      <Tooltip label={status}>
        <Icon
          size={size === 'xs' ? 14 : 16}
          color={`var(--mantine-color-${COLOR[label] ?? 'gray'}-6)`}
          aria-label={status}
          role="img"
          style={{ flexShrink: 0 }}
        />
      </Tooltip>
      <Text size={size} c="dimmed" truncate title={`${status}${words ? ` · ${words}` : ''}`}>
        {words || status}
      </Text>
    </Group>
  );
}

/** The check of a lead's first looked-up phone of one attribute, for a table cell. */
export function PhoneCheckOf({ lead, attributeId }: { lead: { lead_values: TLeadValue[] }; attributeId: number }) {
  const value = lead.lead_values.find((v) => v.attribute.id === attributeId && isChecked(v));
  return value ? <PhoneCheck value={value} /> : null;
}
