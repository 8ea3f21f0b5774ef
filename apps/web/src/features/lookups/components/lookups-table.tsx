import { canStartLookup, canStopLookup, type TLookup } from '@herald/shared/lookups/lookups.schemas';
import { ActionIcon, Anchor, Checkbox, Group, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SelectAllHeader } from '../../../components/select-all-header.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatMoney, formatNumber, formatPercent } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import type { useSelection } from '../../../lib/use-selection.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import type { TLookupPage } from '../api/get-lookups.ts';
import { timeLeftWords } from '../lookup-text.ts';
import { LookupStatusBadge } from './lookup-status-badge.tsx';

interface Props {
  query: UseQueryResult<TLookupPage>;
  table: TableState;
  selection: ReturnType<typeof useSelection>;
  empty: ReactNode;
  busy: boolean;
  onOpen: (row: TLookup) => void;
  onMove: (row: TLookup, status: 1 | 2) => void;
}

/** What a lookup looks up: its list (or a campaign step's recipients). */
export const lookupName = (l: TLookup) => l.list?.name ?? l.source?.name ?? `#${l.id}`;

/** The team's lookups: select, sort, open (the gateway), and each row's start or stop. */
export function LookupsTable({ query, table, selection, empty, busy, onOpen, onMove }: Props) {
  const { t } = useTranslation('lookups');
  const rows = query.data?.data ?? [];

  if (query.isPending) return <LoadingState rows={6} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <>
      <ScrollTable minWidth={940} verticalSpacing="sm" stickyColumns={2} stickyLast aria-label={t('title')}>
        <Table.Thead>
          <Table.Tr>
            <SelectAllHeader selection={selection} />
            <SortHeader field="source" sort={table.sort} onSort={table.toggleSort}>
              {t('column.source')}
            </SortHeader>
            <SortHeader field="list" sort={table.sort} onSort={table.toggleSort}>
              {t('column.list')}
            </SortHeader>
            <Table.Th>{t('column.gateway')}</Table.Th>
            <Table.Th miw={160}>{t('column.progress')}</Table.Th>
            <Table.Th>{t('column.timeLeft')}</Table.Th>
            <SortHeader field="phones" sort={table.sort} onSort={table.toggleSort}>
              {t('column.phones')}
            </SortHeader>
            <Table.Th ta="right">{t('column.cost')}</Table.Th>
            <SortHeader field="status" sort={table.sort} onSort={table.toggleSort}>
              {t('column.status')}
            </SortHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const name = lookupName(row);
            const left = timeLeftWords(row.status === 1 ? row.time_left : null);
            return (
              <Table.Tr key={row.id} style={{ cursor: 'pointer' }} onClick={() => onOpen(row)} data-lookup-id={row.id}>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    aria-label={t('selectRow', { name })}
                    checked={selection.selected.includes(row.id)}
                    onChange={() => selection.toggle(row.id)}
                  />
                </Table.Td>
                <Table.Td>
                  {row.source ? (
                    <Anchor
                      component={Link}
                      to={`/sources/${row.source.id}`}
                      size="sm"
                      onClick={(e) => e.stopPropagation()}
                      {...cellText(row.source.name, { maxWidth: '12rem' })}
                    >
                      {row.source.name}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>
                  {row.source && row.list ? (
                    <Anchor
                      component={Link}
                      to={`/sources/${row.source.id}/${row.list.id}`}
                      size="sm"
                      fw={500}
                      onClick={(e) => e.stopPropagation()}
                      {...cellText(row.list.name, { maxWidth: '12rem' })}
                    >
                      {row.list.name}
                    </Anchor>
                  ) : (
                    <Text size="sm">{name}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" {...cellText(row.gateway?.name ?? '—', { maxWidth: '10rem' })}>
                    {row.gateway?.name ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Group gap={6} wrap="nowrap">
                      <Progress
                        value={row.percent}
                        size="sm"
                        color={row.status === 3 ? 'teal' : 'indigo'}
                        striped={row.status === 1}
                        animated={row.status === 1}
                        style={{ flex: 1 }}
                        aria-label={`${name}: ${formatPercent(row.percent)}`}
                      />
                      <Text size="xs" w={36} ta="right" data-lookup-percent>
                        {formatPercent(row.percent)}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed" data-lookup-count={row.count}>
                      {row.status === 3 ? t('completed') : t('phonesLeft', { count: row.count })}
                    </Text>
                    {row.reason && row.status !== 3 && (
                      <Text size="xs" c="red.7">
                        {translateMessage({ code: row.reason })}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-lookup-time-left>
                    {left ? t(left.key, left.values) : '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatNumber(row.phones)}</Text>
                  {row.reused > 0 && (
                    <Text size="xs" c="dimmed">
                      {t('column.reused')}: {formatNumber(row.reused)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{formatMoney(row.cost, row.currency)}</Text>
                  {row.saved > 0 && (
                    <Text size="xs" c="teal.7">
                      −{formatMoney(row.saved, row.currency)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td onClick={(e) => e.stopPropagation()} style={{ whiteSpace: 'nowrap' }}>
                  <Group gap={4} wrap="nowrap">
                    <LookupStatusBadge lookup={row} />
                    {canStartLookup(row.status) && (
                      <Tooltip label={t('start')}>
                        <ActionIcon
                          variant="subtle"
                          color="indigo"
                          aria-label={t('startNamed', { name })}
                          disabled={busy}
                          onClick={() => onMove(row, 1)}
                        >
                          <IconPlayerPlay size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canStopLookup(row.status) && (
                      <Tooltip label={t('stop')}>
                        <ActionIcon
                          variant="subtle"
                          color="yellow"
                          aria-label={t('stopNamed', { name })}
                          disabled={busy}
                          onClick={() => onMove(row, 2)}
                        >
                          <IconPlayerPause size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
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
