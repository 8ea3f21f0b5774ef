import { Group, Paper, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { useCampaign } from '../../../features/campaigns/api/get-campaign.ts';
import { useCampaignLogs } from '../../../features/campaigns/api/get-campaign-logs.ts';
import { CampaignLogsTable } from '../../../features/campaigns/components/campaign-logs-table.tsx';
import { CampaignStatusBadge } from '../../../features/campaigns/components/campaign-status-badge.tsx';
import { useIdParam } from '../../use-id-param.ts';
import { CampaignTabs } from './campaign-page.tsx';

/** `/campaigns/{id}/logs`: what was changed, by whom, and what the engine did, newest first. */
export function CampaignLogsPage() {
  const { t } = useTranslation('campaigns');
  const id = useIdParam('campaignId');
  const campaign = useCampaign(id);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(50);
  const logs = useCampaignLogs(id, { page, limit });

  return (
    <Stack>
      <Group gap="sm">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {campaign.data?.name ?? ''}
        </Title>
        {campaign.data && <CampaignStatusBadge status={campaign.data.status} />}
      </Group>
      <CampaignTabs id={id} active="logs" />
      <Paper withBorder radius="md" p="md">
        {logs.isPending ? (
          <LoadingState rows={6} />
        ) : logs.isError ? (
          <ErrorState error={logs.error} onRetry={() => logs.refetch()} />
        ) : logs.data.data.length === 0 ? (
          <EmptyState text={t('logEmpty')} />
        ) : (
          <>
            <CampaignLogsTable logs={logs.data.data} />
            <TablePager
              page={page}
              lastPage={logs.data.meta.last_page}
              total={logs.data.meta.total}
              limit={limit}
              onPage={setPage}
              onLimit={(l) => {
                setLimit(l);
                setPage(1);
              }}
            />
          </>
        )}
      </Paper>
    </Stack>
  );
}
