import { Button, Checkbox, Group, Menu, Paper, Stack, Title } from '@mantine/core';
import type { TExport } from '@herald/shared/segments/segments.schemas';
import { IconColumns, IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { useCampaign } from '../../../features/campaigns/api/get-campaign.ts';
import { useCampaignRecipients } from '../../../features/campaigns/api/get-campaign-recipients.ts';
import { exportCampaignAudience } from '../../../features/campaigns/api/export-campaign-audience.ts';
import { withStartedExport } from '../../../features/segments/active-exports.ts';
import { activeExportsQueryKey } from '../../../features/segments/api/get-active-exports.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  CampaignRecipientsTable,
  RECIPIENT_COLUMNS,
} from '../../../features/campaigns/components/campaign-recipients-table.tsx';
import { CampaignStatusBadge } from '../../../features/campaigns/components/campaign-status-badge.tsx';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useIdParam } from '../../use-id-param.ts';
import { CampaignTabs } from './campaign-page.tsx';

/** `/campaigns/{id}/audience`: who the campaign reached and what each step did for each of them. */
export function CampaignAudiencePage() {
  const { t } = useTranslation('campaigns');
  const id = useIdParam('campaignId');
  const campaign = useCampaign(id);
  const { data: user } = useCurrentUser();
  // The spec's 'campaign audience' table: its sort and hidden columns are kept apart from the others.
  const table = useTableState('campaign-audience', { field: 'lead_id', dir: 'asc' });
  const started = campaign.data ? campaign.data.started_at !== null : false;
  const recipients = useCampaignRecipients(id, table.query, started);
  // The file goes through the audiences' exports: it shows in the processes popover and downloads there.
  const queryClient = useQueryClient();
  const exportFile = useMutation({
    mutationFn: exportCampaignAudience,
    onSuccess: (begun) =>
      queryClient.setQueryData<{ data: TExport[] }>(activeExportsQueryKey, (old) => withStartedExport(old, begun)),
  });
  const startExport = async (format: 'csv' | 'xlsx') => {
    const name = t('audienceTable.exportName', { campaign: campaign.data?.name ?? `#${id}` });
    await exportFile.mutateAsync({ id, format, name, search: table.appliedSearch || undefined });
    notifySuccess(t('audienceTable.exportStarted', { name }));
  };

  return (
    <Stack>
      <Group gap="sm">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {campaign.data?.name ?? ''}
        </Title>
        {campaign.data && <CampaignStatusBadge status={campaign.data.status} />}
      </Group>
      <CampaignTabs id={id} active="audience" />
      <Paper withBorder radius="md" p="md">
        {campaign.data && !started ? (
          <EmptyState text={t('audienceTable.empty')} hint={t('audienceTable.notStarted')} />
        ) : (
          <>
            <Group justify="space-between" mb="sm" mih={36} gap="xs">
              <SearchInput value={table.search} onChange={table.setSearch} />
              <Group gap="xs">
                <Menu withinPortal>
                  <Menu.Target>
                    <Button
                      variant="default"
                      leftSection={<IconDownload size={16} aria-hidden />}
                      loading={exportFile.isPending}
                    >
                      {t('audienceTable.export')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => startExport('csv')}>CSV</Menu.Item>
                    <Menu.Item onClick={() => startExport('xlsx')}>XLSX</Menu.Item>
                  </Menu.Dropdown>
                </Menu>
                <Menu withinPortal closeOnItemClick={false}>
                  <Menu.Target>
                    <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
                      {t('columns')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {RECIPIENT_COLUMNS.map((c) => (
                      <Menu.Item key={c} onClick={() => table.toggleHidden(c)}>
                        <Checkbox
                          size="xs"
                          readOnly
                          checked={!table.hidden.includes(c)}
                          label={t(c === 'sent_at' ? 'audienceTable.sentAt' : `audienceTable.${c}`)}
                          tabIndex={-1}
                        />
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
              </Group>
            </Group>
            <CampaignRecipientsTable
              campaignId={id}
              query={recipients}
              table={table}
              currency={user?.balance_currency}
              empty={<EmptyState text={t('audienceTable.empty')} />}
            />
          </>
        )}
      </Paper>
    </Stack>
  );
}
