import type { TExport } from '@herald/shared/segments/segments.schemas';
import { Anchor, Badge, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { getToken } from '../../../lib/session.ts';
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
  const token = getToken();
  const href = item.url && token ? `${item.url}?token=${encodeURIComponent(token)}` : null;
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
        {item.type === 'export-completed' && href ? (
          <Anchor href={href} download size="sm" aria-label={t('downloadNamed', { name: item.name })}>
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
