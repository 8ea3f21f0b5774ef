import { canDeleteCampaign, manualMovesOf, type TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignPage } from '@herald/shared/campaigns/campaigns.schemas';
import { ActionIcon, Anchor, Checkbox, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconCopy, IconDots, IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SelectAllHeader } from '../../../components/select-all-header.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../../../lib/format.ts';
import { useCampaignFigures } from '../api/get-campaign-figures.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import type { useSelection } from '../../../lib/use-selection.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import { CampaignStatusBadge } from './campaign-status-badge.tsx';

/** Columns a user may hide; the name and the status always show. */
export const CAMPAIGN_COLUMNS = ['start_at', 'steps', 'recipients', 'results', 'cost', 'created_at'] as const;
/**
 * The figures a started campaign has (decision 038): percentages floored, the cost actually charged.
 * The three percentages share one column, a line each, so the list still fits a laptop.
 */
const FIGURES = ['sent', 'delivered', 'clicked'] as const;
const FIGURE_OF = {
  sent: 'percentage_sent_of_all_steps',
  delivered: 'percentage_delivered',
  clicked: 'percentage_clicked',
} as const;

interface Props {
  query: UseQueryResult<TCampaignPage>;
  table: TableState;
  selection: ReturnType<typeof useSelection>;
  manualStatuses: readonly TCampaignStatus[];
  empty: ReactNode;
  /** The team's balance currency, for the actual cost. */
  currency?: string;
  onStatus: (rows: TCampaign[], status: TCampaignStatus) => void;
  onDuplicate: (row: TCampaign) => void;
  onDelete: (rows: TCampaign[]) => void;
}

const facts = (c: TCampaign) => ({ status: c.status, started: c.started_at !== null });

/** The campaigns of the team: select, sort, open, and each row's status, duplicate and delete. */
export function CampaignsTable({ query, table, selection, manualStatuses, empty, currency, ...on }: Props) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const rows = query.data?.data ?? [];
  const shown = (c: (typeof CAMPAIGN_COLUMNS)[number]) => !table.hidden.includes(c);
  const figures = useCampaignFigures(rows.filter((r) => r.started_at !== null).map((r) => r.id));

  if (query.isPending) return <LoadingState rows={6} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <>
      <ScrollTable minWidth={900} verticalSpacing="sm" stickyColumns={2} stickyLast aria-label={t('title')}>
        <Table.Thead>
          <Table.Tr>
            <SelectAllHeader selection={selection} />
            <SortHeader field="name" sort={table.sort} onSort={table.toggleSort}>
              {t('name')}
            </SortHeader>
            {shown('start_at') && (
              <SortHeader field="start_at" sort={table.sort} onSort={table.toggleSort}>
                {t('startAt')}
              </SortHeader>
            )}
            {shown('steps') && <Table.Th ta="right">{t('steps')}</Table.Th>}
            {shown('recipients') && <Table.Th ta="right">{t('recipients')}</Table.Th>}
            {shown('results') && <Table.Th>{t('column.results')}</Table.Th>}
            {shown('cost') && <Table.Th ta="right">{t('column.cost')}</Table.Th>}
            {shown('created_at') && (
              <SortHeader field="created_at" sort={table.sort} onSort={table.toggleSort}>
                {t('createdAt')}
              </SortHeader>
            )}
            <SortHeader field="status" sort={table.sort} onSort={table.toggleSort}>
              {t('status.label')}
            </SortHeader>
            <Table.Th>
              <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const moves = manualMovesOf(facts(row), manualStatuses);
            const deletable = canDeleteCampaign(facts(row));
            return (
              <Table.Tr key={row.id} style={{ cursor: 'pointer' }} onClick={() => navigate(`/campaigns/${row.id}`)}>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    aria-label={t('common:table.selectRow', { name: row.name })}
                    checked={selection.selected.includes(row.id)}
                    onChange={() => selection.toggle(row.id)}
                  />
                </Table.Td>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={`/campaigns/${row.id}`}
                    size="sm"
                    fw={500}
                    c="inherit"
                    onClick={(e) => e.stopPropagation()}
                    {...cellText(row.name, { name: true, maxWidth: '16rem' })}
                  >
                    {row.name}
                  </Anchor>
                </Table.Td>
                {shown('start_at') && (
                  <Table.Td>
                    <Text size="sm">{row.start_at_local ?? '—'}</Text>
                  </Table.Td>
                )}
                {shown('steps') && <Table.Td ta="right">{formatNumber(row.steps_count)}</Table.Td>}
                {shown('recipients') && (
                  <Table.Td ta="right">
                    {row.recipients_count === null ? '—' : formatNumber(row.recipients_count)}
                  </Table.Td>
                )}
                {shown('results') && (
                  <Table.Td>
                    {figures.data?.get(row.id) ? (
                      <Stack gap={0}>
                        {FIGURES.map((c) => (
                          <Text key={c} size="xs" style={{ whiteSpace: 'nowrap' }}>
                            <Text span size="xs" c="dimmed">
                              {t(`column.${c}`)}{' '}
                            </Text>
                            <span data-figure={c}>{formatPercent(figures.data?.get(row.id)?.[FIGURE_OF[c]] ?? 0)}</span>
                          </Text>
                        ))}
                      </Stack>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                )}
                {shown('cost') && (
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-figure="cost">
                    {figures.data?.get(row.id)
                      ? formatMoney(figures.data.get(row.id)?.actual_cost ?? 0, currency)
                      : '—'}
                  </Table.Td>
                )}
                {shown('created_at') && (
                  <Table.Td>
                    <Text size="sm">{formatDateTime(row.created_at)}</Text>
                  </Table.Td>
                )}
                <Table.Td>
                  <CampaignStatusBadge status={row.status} />
                </Table.Td>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={t('rowActions', { name: row.name })}>
                        <IconDots size={16} aria-hidden />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {moves.length > 0 && <Menu.Label>{t('changeStatus')}</Menu.Label>}
                      {moves.map((to) => (
                        <Menu.Item key={to} onClick={() => on.onStatus([row], to)}>
                          {t(`move.${to}`)}
                        </Menu.Item>
                      ))}
                      <Menu.Divider />
                      <Menu.Item leftSection={<IconCopy size={14} aria-hidden />} onClick={() => on.onDuplicate(row)}>
                        {t('duplicate')}
                      </Menu.Item>
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        disabled={!deletable.ok}
                        title={deletable.ok ? undefined : translateMessage({ code: deletable.code })}
                        onClick={() => on.onDelete([row])}
                      >
                        {t('common:delete')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </ScrollTable>
      <TablePager
        page={table.page}
        lastPage={query.data.meta.last_page}
        total={query.data.meta.total}
        limit={table.limit}
        onPage={table.setPage}
        onLimit={table.setLimit}
      />
    </>
  );
}
