import type { TExport } from '@herald/shared/segments/segments.schemas';
import { Anchor, Badge, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { downloadExport } from '../api/download-export.ts';
import { activeExportsQueryKey, useActiveExports } from '../api/get-active-exports.ts';

/** The segment's recent exports: "Generating file" until `export-completed` brings the Download link. */
export function ExportsList({ segmentId }: { segmentId: number }) {
  const { t } = useTranslation('segments');
  const queryClient = useQueryClient();
  const exports = useActiveExports();

  useServerEvent('ExportStatus', (changed) =>
    queryClient.setQueryData<{ data: TExport[] }>(activeExportsQueryKey, (old) => {
      const list = old?.data ?? [];
      const known = list.some((e) => e.id === changed.id);
      return { data: known ? list.map((e) => (e.id === changed.id ? changed : e)) : [changed, ...list] };
    }),
  );

  const mine = (exports.data?.data ?? []).filter((e) => e.segment_id === segmentId);
  if (mine.length === 0) return null;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('exports')}>
      <Title order={4} mb="sm">
        {t('exports')}
      </Title>
      <Stack gap="sm">
        {mine.map((e) => (
          <ExportItem key={e.id} item={e} />
        ))}
      </Stack>
    </Paper>
  );
}

function ExportItem({ item }: { item: TExport }) {
  const { t } = useTranslation('segments');
  const download = (event: MouseEvent) => {
    event.preventDefault();
    downloadExport(item).catch((error: unknown) => {
      // A sign-in that expired, a 429: already said by the API client.
      if (!(isApiError(error) && error.handled)) notifyError(describeApiError(error));
    });
  };
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={500} truncate>
            {item.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.created_at)} · {t('exportRows', { count: item.rows, rows: formatNumber(item.rows) })}
          </Text>
        </Stack>
        {item.type === 'export-completed' && item.url ? (
          // A link still (it names a file), followed with a ticket: the session token stays out of URLs.
          <Anchor href={item.url} onClick={download} size="sm" aria-label={t('downloadNamed', { name: item.name })}>
            <Group gap={4} wrap="nowrap">
              <IconDownload size={16} aria-hidden />
              {t('download')}
            </Group>
          </Anchor>
        ) : item.type === 'export-failed' ? (
          <Badge color="red" variant="light" title={item.error ?? undefined}>
            {t('exportFailed')}
          </Badge>
        ) : (
          <Badge color="blue" variant="light">
            {t('generatingFile')}
          </Badge>
        )}
      </Group>
      {item.type === 'export-pending' && (
        <Progress value={Math.floor(item.progress)} size="sm" striped animated aria-label={t('generatingFile')} />
      )}
    </Stack>
  );
}
