import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { Anchor, Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import type { SegmentPage } from '../api/get-segments.ts';

interface Props {
  query: UseQueryResult<SegmentPage>;
  table: TableState;
  label: string;
  nameHeader: string;
  emptyText: string;
  hrefOf: (segment: TSegment) => string;
  /** The audiences table links each segments count to /audiences/{id}/segments. */
  segmentsHrefOf?: (segment: TSegment) => string;
}

/** Audiences at `/`, or an audience's segments: name, created date, (segments), leads; search and paging. */
export function SegmentsTable({ query, table, label, nameHeader, emptyText, hrefOf, segmentsHrefOf }: Props) {
  const { t } = useTranslation('segments');
  const navigate = useNavigate();
  const rows = query.data?.data ?? [];

  return (
    <>
      <SearchInput value={table.search} onChange={table.setSearch} label={t('search')} />
      <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
        {query.isPending ? (
          <LoadingState rows={6} />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => query.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState text={emptyText} />
        ) : (
          <>
            <ScrollTable minWidth={640} verticalSpacing="sm" aria-label={label}>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader field="name" sort={table.sort} onSort={table.toggleSort}>
                    {nameHeader}
                  </SortHeader>
                  <SortHeader field="created_at" sort={table.sort} onSort={table.toggleSort}>
                    {t('createdDate')}
                  </SortHeader>
                  {segmentsHrefOf && <Table.Th ta="right">{t('segmentsCount')}</Table.Th>}
                  <Table.Th ta="right">{t('leadsCount')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id} style={{ cursor: 'pointer' }} onClick={() => navigate(hrefOf(row))}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={hrefOf(row)}
                        size="sm"
                        fw={500}
                        c="inherit"
                        onClick={(e) => e.stopPropagation()}
                        {...cellText(row.name, { name: true, maxWidth: '24rem' })}
                      >
                        {row.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</Table.Td>
                    {segmentsHrefOf && (
                      <Table.Td ta="right">
                        <Anchor
                          component={Link}
                          to={segmentsHrefOf(row)}
                          size="sm"
                          aria-label={t('segmentsOf', { name: row.name, count: row.segments_count })}
                          onClick={(e) => e.stopPropagation()}
                        >
                          {formatNumber(row.segments_count)}
                        </Anchor>
                      </Table.Td>
                    )}
                    <Table.Td ta="right">
                      <Text size="sm">{row.leads_count === null ? '—' : formatNumber(row.leads_count)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
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
        )}
      </div>
    </>
  );
}
