import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';

type Counts = Pick<
  TImportFile,
  | 'parsed_leads_count'
  | 'leads_processed'
  | 'leads_total'
  | 'duplicates_resolved_count'
  | 'leads_failed'
  | 'ignored_phones_count'
  | 'invalid_format_phones_count'
>;

/** The counters of an import, in the order of the history table. */
export function importCounters(file: Counts) {
  return [
    { key: 'parsed', value: file.parsed_leads_count },
    { key: 'processed', value: file.leads_processed },
    { key: 'unique', value: file.leads_total },
    { key: 'duplicates', value: file.duplicates_resolved_count },
    { key: 'failed', value: file.leads_failed },
    { key: 'ignored', value: file.ignored_phones_count },
    { key: 'invalid', value: file.invalid_format_phones_count },
  ] as const;
}

export function ImportCounters({ file }: { file: Counts }) {
  const { t } = useTranslation('imports');
  return (
    <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
      {importCounters(file).map((c) => (
        <Paper key={c.key} withBorder radius="sm" px="sm" py={6} aria-label={t(`counters.${c.key}`)} role="group">
          <Text size="xs" c="dimmed" lh={1.3}>
            {t(`counters.${c.key}`)}
          </Text>
          <Text fw={700} data-counter={c.key}>
            {formatNumber(c.value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
