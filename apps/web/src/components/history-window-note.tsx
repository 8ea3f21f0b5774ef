import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Under a history the plan cuts short (its `history-days`, decision 015): says how far back it
 * goes, so an older entry's absence is not taken for a loss. Nothing when the plan keeps it all.
 */
export function HistoryWindowNote({ days }: { days: number | null | undefined }) {
  const { t } = useTranslation();
  if (days == null) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('common:historyWindow', { count: days })}
    </Text>
  );
}
