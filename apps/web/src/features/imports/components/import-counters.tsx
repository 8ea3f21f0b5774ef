import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { Group, Paper, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
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
  | 'leads_without_phone'
>;

/** The counters of an import, in the order of the history table. Each is defined once, in `counters.help`. */
export function importCounters(file: Counts) {
  return [
    { key: 'parsed', value: file.parsed_leads_count },
    { key: 'processed', value: file.leads_processed },
    { key: 'unique', value: file.leads_total },
    { key: 'duplicates', value: file.duplicates_resolved_count },
    { key: 'failed', value: file.leads_failed },
    { key: 'ignored', value: file.ignored_phones_count },
    { key: 'invalid', value: file.invalid_format_phones_count },
    { key: 'withoutPhone', value: file.leads_without_phone },
  ] as const;
}

export type ImportCounterKey = ReturnType<typeof importCounters>[number]['key'];

/** A counter's name with its definition on hover or focus: the same words in the history and the progress modal. */
export function CounterLabel({
  counter,
  size = 'xs',
  focusable = true,
}: {
  counter: ImportCounterKey;
  size?: 'xs' | 'sm';
  /** False inside a control that takes the focus itself (a sort header's button). */
  focusable?: boolean;
}) {
  const { t } = useTranslation('imports');
  return (
    <Tooltip
      label={t(`counters.help.${counter}`)}
      multiline
      w={300}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      <Group
        gap={4}
        wrap="nowrap"
        component="span"
        tabIndex={focusable ? 0 : undefined}
        data-counter-help={counter}
        style={{ cursor: 'help' }}
      >
        <Text span size={size} inherit={size === 'sm'}>
          {t(`counters.${counter}`)}
        </Text>
        <IconInfoCircle size={13} aria-hidden style={{ flexShrink: 0, opacity: 0.6 }} />
      </Group>
    </Tooltip>
  );
}

export function ImportCounters({ file }: { file: Counts }) {
  const { t } = useTranslation('imports');
  return (
    <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
      {importCounters(file).map((c) => (
        <Paper key={c.key} withBorder radius="sm" px="sm" py={6} aria-label={t(`counters.${c.key}`)} role="group">
          <Text size="xs" c="dimmed" lh={1.3} component="div">
            <CounterLabel counter={c.key} />
          </Text>
          <Text fw={700} data-counter={c.key}>
            {formatNumber(c.value)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
