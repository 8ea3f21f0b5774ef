import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../../lib/format.ts';

/** The VerificationLookup column: verified and looked-up shares, floored. */
export function PercentBars({ verified, lookup }: { verified: number; lookup: number }) {
  const { t } = useTranslation('sources');
  const rows = [
    { label: t('verified'), value: verified, color: 'teal' },
    { label: t('lookup'), value: lookup, color: 'indigo' },
  ];
  return (
    <Stack gap={4} miw={140}>
      {rows.map((row) => (
        <Group key={row.label} gap={6} wrap="nowrap">
          <Text size="xs" c="dimmed" w={72} truncate>
            {row.label}
          </Text>
          <Progress
            value={Math.floor(row.value)}
            color={row.color}
            size="sm"
            style={{ flex: 1 }}
            aria-label={`${row.label}: ${formatPercent(row.value)}`}
          />
          <Text size="xs" w={36} ta="right">
            {formatPercent(row.value)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
