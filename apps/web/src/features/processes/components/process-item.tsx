import { ACTIVE_PROCESS_STATUSES, type TProcess } from '@herald/shared/processes/processes.schemas';
import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { processColor, processLabelKeys, processNote } from '../process-display.ts';
import { Link } from 'react-router';

/**
 * `extra`: what the page composing the popover adds under a process, below what it says (an
 * export's download, a campaign's pause or resume).
 */
export function ProcessItem({ process, extra }: { process: TProcess; extra?: React.ReactNode }) {
  const { t } = useTranslation();
  const active = (ACTIVE_PROCESS_STATUSES as readonly string[]).includes(process.status);
  const progress = Math.floor(process.progress);
  const color = processColor(process);
  const note = processNote(process);
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} truncate title={process.title}>
          {process.title}
        </Text>
        <Badge size="sm" variant="light" color={color}>
          {t(processLabelKeys(process))}
        </Badge>
      </Group>
      <Progress
        value={progress}
        size="sm"
        color={color}
        striped={active}
        animated={active}
        aria-label={t('processes.progress', { title: process.title, value: progress })}
      />
      {note?.kind === 'rows_failed' && (
        <Anchor component={Link} to={`/settings/import-history/${note.importId}`} size="xs" c="yellow.8">
          {t('imports:rowsFailed', { count: note.count })}
        </Anchor>
      )}
      {note?.kind === 'text' && (
        <Text size="xs" c="dimmed">
          {t(note.keys, note.params)}
        </Text>
      )}
      {extra}
    </Stack>
  );
}
