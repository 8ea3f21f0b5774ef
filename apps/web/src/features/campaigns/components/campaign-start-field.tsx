import { START_STEP_MINUTES } from '@herald/shared/campaigns/campaigns.schemas';
import { defaultStart, instantToZoned } from '@herald/shared/campaigns/zoned-time';
import { Group, Input, Select, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Every time of day on the start's 5-minute step, `HH:mm`. */
const TIMES = Array.from({ length: (24 * 60) / START_STEP_MINUTES }, (_, i) => {
  const minutes = i * START_STEP_MINUTES;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

/** The default start in a zone: now + 5 minutes, rounded up to the next 5 minutes (spec). */
export function defaultStartIn(timezone: string): string {
  return instantToZoned(defaultStart(new Date()), timezone);
}

interface Props {
  /** `YYYY-MM-DD HH:mm` in the campaign's zone. */
  value: string;
  timezone: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  description?: string;
}

/**
 * The start as the spec shows it, `YYYY-MM-DD HH:mm` in the campaign's zone: the date typed, the
 * time picked on 5-minute steps. A start off the step (set through the API) stays offered.
 */
export function CampaignStartField({ value, timezone, onChange, disabled, description }: Props) {
  const { t } = useTranslation('campaigns');
  const [date = '', time = ''] = value.split(' ');
  const times = useMemo(() => (time && !TIMES.includes(time) ? [...TIMES, time].sort() : TIMES), [time]);
  const dateOk = /^\d{4}-\d{2}-\d{2}$/.test(date);
  return (
    <Input.Wrapper
      label={t('startLocal')}
      description={description ?? t('startIn', { zone: timezone })}
      error={date && !dateOk ? t('startDateFormat') : undefined}
    >
      <Group gap="xs" wrap="nowrap" mt={4}>
        <TextInput
          aria-label={t('startDate')}
          placeholder="YYYY-MM-DD"
          value={date}
          onChange={(e) =>
            onChange(`${e.currentTarget.value.trim()} ${time || defaultStartIn(timezone).split(' ')[1]}`)
          }
          disabled={disabled}
          inputMode="numeric"
          maxLength={10}
          style={{ flex: 1, minWidth: 0 }}
          error={Boolean(date && !dateOk)}
        />
        <Select
          aria-label={t('startTime')}
          placeholder="HH:mm"
          data={times}
          value={time || null}
          onChange={(v) => v && onChange(`${date || defaultStartIn(timezone).split(' ')[0]} ${v}`)}
          searchable
          allowDeselect={false}
          disabled={disabled}
          w={110}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
    </Input.Wrapper>
  );
}
