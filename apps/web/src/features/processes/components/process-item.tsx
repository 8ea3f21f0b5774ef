import { ACTIVE_PROCESS_STATUSES, type TProcess } from '@herald/shared/processes/processes.schemas';
import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { processColor, processLabelKeys } from '../process-display.ts';
import { Link } from 'react-router';

/** `extra`: what the page composing the popover adds under a process (an export's download). */
export function ProcessItem({ process, extra }: { process: TProcess; extra?: React.ReactNode }) {
  const { t } = useTranslation();
  const active = (ACTIVE_PROCESS_STATUSES as readonly string[]).includes(process.status);
  const progress = Math.floor(process.progress);
  const color = processColor(process);
  // A completed import that refused rows: `leads_failed:<count>:<import id>`.
  const failedRows = /^leads_failed:(\d+):(\d+)$/.exec(process.message ?? '');
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
      {failedRows && (
        <Anchor component={Link} to={`/settings/import-history/${failedRows[2]}`} size="xs" c="yellow.8">
          {t('imports:rowsFailed', { count: Number(failedRows[1]) })}
        </Anchor>
      )}
      {extra}
      {process.message && !failedRows && !process.message.startsWith('export:') && (
        <Text size="xs" c="dimmed">
          {/* A failure's code (the server never sends its own words): an import's reason, an
              error's text, or, for anything else, that the job failed. */}
          {t([`imports:failure.${process.message}`, `errors:${process.message}`, 'processes.failure'])}
        </Text>
      )}
    </Stack>
  );
}
