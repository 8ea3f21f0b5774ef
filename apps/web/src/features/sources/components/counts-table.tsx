import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { Anchor, Badge, Button, Checkbox, Group, Table, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { useSelection } from '../../../lib/use-selection.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import { CountsCells, CountsHeads } from './counts-cells.tsx';
import { RowActions } from './row-actions.tsx';
import { SelectAllHeader } from '../../../components/select-all-header.tsx';

type Row = TLeadCounts & { id: number; name: string; status: 'active' | 'inactive' };

interface Props<T extends Row> {
  kind: 'sources' | 'lists';
  label: string;
  nameHeader: string;
  emptyText: string;
  /** What to do next when there is nothing yet, and the buttons that do it. */
  emptyHint?: string;
  emptyAction?: ReactNode;
  query: UseQueryResult<{ data: T[]; meta: TPageMeta }>;
  table: TableState;
  hrefOf: (row: T) => string;
  canManage: boolean;
  onEdit: (row: T) => void;
  onDelete: (rows: T[]) => void;
  /** What the page adds for the selected rows beside Delete (a lookup of them). */
  selectionActions?: (rows: T[]) => ReactNode;
}

/** The sources table and a source's lists table: search, sort by name, select, delete, open. */
export function CountsTable<T extends Row>(props: Props<T>) {
  const { kind, label, query, table, canManage } = props;
  const { t } = useTranslation('sources');
  const navigate = useNavigate();
  const rows = query.data?.data ?? [];
  const selection = useSelection(rows.map((r) => r.id));

  return (
    <>
      <Group justify="space-between" mb="sm" mih={36}>
        <SearchInput value={table.search} onChange={table.setSearch} />
        {canManage && selection.selected.length > 0 && (
          <Group gap="xs">
            {props.selectionActions?.(rows.filter((r) => selection.selected.includes(r.id)))}
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => props.onDelete(rows.filter((r) => selection.selected.includes(r.id)))}
            >
              {t('deleteSelected', { count: selection.selected.length })}
            </Button>
          </Group>
        )}
      </Group>
      {query.isPending ? (
        <LoadingState rows={6} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => query.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={props.emptyText} hint={props.emptyHint}>
          {props.emptyAction}
        </EmptyState>
      ) : (
        <>
          <ScrollTable
            minWidth={960}
            verticalSpacing="sm"
            stickyColumns={canManage ? 2 : 1}
            stickyLast={canManage}
            aria-label={label}
          >
            <Table.Thead>
              <Table.Tr>
                {canManage && <SelectAllHeader selection={selection} />}
                <SortHeader field="name" sort={table.sort} onSort={table.toggleSort}>
                  {props.nameHeader}
                </SortHeader>
                <CountsHeads order={kind} />
                {canManage && (
                  <Table.Th>
                    <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} style={{ cursor: 'pointer' }} onClick={() => navigate(props.hrefOf(row))}>
                  {canManage && (
                    <Table.Td onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label={t('common:table.selectRow', { name: row.name })}
                        checked={selection.selected.includes(row.id)}
                        onChange={() => selection.toggle(row.id)}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Anchor
                        component={Link}
                        to={props.hrefOf(row)}
                        size="sm"
                        fw={500}
                        c="inherit"
                        onClick={(e) => e.stopPropagation()}
                        {...cellText(row.name, { name: true, maxWidth: '16rem' })}
                      >
                        {row.name}
                      </Anchor>
                      {row.status === 'inactive' && (
                        <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0, overflow: 'visible' }}>
                          {t('inactive')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <CountsCells counts={row} order={kind} />
                  {canManage && (
                    <Table.Td>
                      <RowActions
                        name={row.name}
                        onEdit={() => props.onEdit(row)}
                        onDelete={() => props.onDelete([row])}
                      />
                    </Table.Td>
                  )}
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
    </>
  );
}
