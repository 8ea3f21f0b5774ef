import type { TStatisticFilterType } from '@herald/shared/campaigns/campaign-statistics.schemas';
import { Anchor, Badge, Drawer, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useStatisticLeads } from '../api/get-campaign-statistic.ts';

export interface LeadsOpened {
  filter: TStatisticFilterType;
  label: string;
  stepId?: number;
}

/** The leads behind a figure (`statistic-leads`), paged; a lead opens under the campaign. */
export function StatisticLeadsDrawer({
  campaignId,
  opened,
  onClose,
}: {
  campaignId: number;
  opened: LeadsOpened | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('campaigns');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(15);
  const leads = useStatisticLeads(
    campaignId,
    opened ? { filter_type: opened.filter, step_id: opened.stepId, page, limit } : null,
  );
  return (
    <Drawer
      opened={opened !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      position="right"
      size="lg"
      title={opened ? t('statistics.leadsOf', { figure: opened.label }) : ''}
    >
      {leads.isPending ? (
        <LoadingState rows={5} />
      ) : leads.isError ? (
        <ErrorState error={leads.error} onRetry={() => leads.refetch()} />
      ) : leads.data.data.length === 0 ? (
        <Text c="dimmed">{t('statistics.noLeads')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={420}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('statistics.phone')}</Table.Th>
                  <Table.Th>{t('statistics.step')}</Table.Th>
                  <Table.Th>{t('statistics.outcome')}</Table.Th>
                  <Table.Th>{t('statistics.at')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {leads.data.data.map((l) => (
                  <Table.Tr key={`${l.step_id}-${l.lead_id}-${l.phone}`}>
                    <Table.Td>
                      {l.lead_id === null ? (
                        (l.phone ?? '—')
                      ) : (
                        <Anchor component={Link} to={`/campaigns/${campaignId}/audience/${l.lead_id}`}>
                          {l.phone ?? '—'}
                        </Anchor>
                      )}
                      {l.clicked && (
                        <Badge ml="xs" size="xs" color="violet" variant="light">
                          {t('statistics.clicked')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{t('statistics.stepN', { n: l.position })}</Table.Td>
                    <Table.Td>{t(`statistics.bucket.${l.bucket}`)}</Table.Td>
                    <Table.Td>{l.at ? formatDateTime(l.at) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <TablePager
            page={page}
            lastPage={leads.data.meta.last_page}
            total={leads.data.meta.total}
            limit={limit}
            onPage={setPage}
            onLimit={(l) => {
              setLimit(l);
              setPage(1);
            }}
          />
        </>
      )}
    </Drawer>
  );
}
