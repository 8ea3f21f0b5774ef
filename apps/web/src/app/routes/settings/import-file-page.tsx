import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useFailedLeads } from '../../../features/imports/api/get-failed-leads.ts';
import { useImportFile } from '../../../features/imports/api/get-import-file.ts';
import { DownloadFailedRows } from '../../../features/imports/components/download-failed-rows.tsx';
import { FailedLeadsTable } from '../../../features/imports/components/failed-leads-table.tsx';
import { ImportActions } from '../../../features/imports/components/import-actions.tsx';
import { ImportCounters } from '../../../features/imports/components/import-counters.tsx';
import { ImportFailureText } from '../../../features/imports/components/import-failure-text.tsx';
import { ImportPhaseBadge } from '../../../features/imports/components/import-phase-badge.tsx';
import { phaseOf } from '../../../features/imports/import-phase.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useIdParam } from '../../use-id-param.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { ContinueImport } from './continue-import.tsx';

/** `/settings/import-history/{fileId}`: one imported file, its counters and its failed leads. */
export function ImportFilePage() {
  const { t } = useTranslation('imports');
  const fileId = useIdParam('fileId');
  const file = useImportFile(fileId);
  const table = useTableState('import-failed', { field: 'row_number', dir: 'asc' });
  const failed = useFailedLeads(fileId, table.query);
  const canAct = usePermission('imports:create');
  const [continuing, setContinuing] = useState(false);

  if (!fileId) return <NotFoundPage />;
  if (file.isPending) return <LoadingState rows={8} />;
  if (file.isError) return <ErrorState error={file.error} onRetry={() => file.refetch()} />;
  const name = file.data.client_original_name;

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={3} style={{ overflowWrap: 'break-word' }}>
            {name}
          </Title>
          <Text size="sm" c="dimmed">
            {t('failedLeads.imported', { date: formatDateTime(file.data.created_at) })}
            {' · '}
            <Anchor component={Link} to={`/sources/${file.data.source_id}/${file.data.list_id}`} size="sm">
              {t('openList')}
            </Anchor>
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {canAct && <ImportActions file={file.data} onContinue={() => setContinuing(true)} />}
          <ImportPhaseBadge phase={phaseOf(file.data)} />
        </Group>
      </Group>
      <ImportCounters file={file.data} />
      {file.data.error && <ImportFailureText file={file.data} color="red.8" />}
      <Group justify="space-between" align="flex-end" mt="sm">
        <Stack gap={0}>
          <Title order={4}>{t('failedLeads.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('failedLeads.intro', { name })}
          </Text>
        </Stack>
        <Group gap="xs" align="flex-end">
          <SearchInput value={table.search} onChange={table.setSearch} label={t('failedLeads.search')} />
          {file.data.leads_failed > 0 && <DownloadFailedRows file={file.data} />}
        </Group>
      </Group>
      <FailedLeadsTable query={failed} table={table} />
      {continuing && <ContinueImport fileId={fileId} onClose={() => setContinuing(false)} />}
    </Stack>
  );
}
