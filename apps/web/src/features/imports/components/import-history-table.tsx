import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import type { ImportHistoryPage } from '../api/get-import-history.ts';
import { phaseOf } from '../import-phase.ts';
import { ImportActions } from './import-actions.tsx';
import { CounterLabel, importCounters } from './import-counters.tsx';
import { ImportPhaseBadge } from './import-phase-badge.tsx';

/** Sortable on the server: name, date, parsed, processed, failed. */
const SORTABLE: Record<string, string> = {
  parsed: 'parsed_leads_count',
  processed: 'leads_processed',
  failed: 'leads_failed',
};

interface Props {
  query: UseQueryResult<ImportHistoryPage>;
  table: TableState;
  hrefOf: (id: number) => string;
  /** Whether the user may resume and cancel imports (a column of actions). */
  canAct: boolean;
  /** Continues an upload left at Match Format (the page opens the import modal for it). */
  onContinue: (fileId: number) => void;
}

/**
 * The team's imports with their counters; a row opens the file's failed leads. An import left
 * failed or running is resumed or cancelled from its row (by a teammate, or after a reload), an
 * upload left at Match Format continued or discarded.
 */
export function ImportHistoryTable({ query, table, hrefOf, canAct, onContinue }: Props) {
  const { t } = useTranslation('imports');
  const navigate = useNavigate();

  if (query.isPending) return <LoadingState rows={8} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const rows = query.data.data;

  return (
    <>
      <ScrollTable minWidth={1000} aria-label={t('history.title')}>
        <Table.Thead>
          <Table.Tr>
            <SortHeader field="name" sort={table.sort} onSort={table.toggleSort}>
              {t('history.name')}
            </SortHeader>
            <SortHeader field="created_at" sort={table.sort} onSort={table.toggleSort}>
              {t('history.date')}
            </SortHeader>
            {importCounters(rows[0] ?? EMPTY).map((c) =>
              SORTABLE[c.key] ? (
                <SortHeader key={c.key} field={SORTABLE[c.key]} sort={table.sort} onSort={table.toggleSort} ta="right">
                  <CounterLabel counter={c.key} size="sm" focusable={false} />
                </SortHeader>
              ) : (
                <Table.Th key={c.key} ta="right">
                  <CounterLabel counter={c.key} size="sm" />
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={10}>
                <EmptyState text={t('history.empty')} />
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((row) => {
            const href = hrefOf(row.id);
            return (
              <Table.Tr key={row.id} onClick={() => navigate(href)} style={{ cursor: 'pointer' }}>
                <Table.Td miw={140}>
                  <Stack gap={4} align="flex-start">
                    <Anchor
                      component={Link}
                      to={href}
                      size="sm"
                      c="inherit"
                      fw={500}
                      aria-label={t('history.open', { name: row.client_original_name })}
                      onClick={(e) => e.stopPropagation()}
                      {...cellText(row.client_original_name, { name: true, maxWidth: '15rem' })}
                    >
                      {wrappable(row.client_original_name)}
                    </Anchor>
                    <Group gap={4}>
                      <ImportPhaseBadge phase={phaseOf(row)} />
                      {canAct && (
                        // Beside the status they act on (under it when the table is short of
                        // room), not in a column of their own: the table fits a laptop's width.
                        // Their clicks (and their confirmation's, a portal of this box) do not
                        // open the row.
                        <Group gap={2} wrap="nowrap" onClick={(e) => e.stopPropagation()} style={{ cursor: 'default' }}>
                          <ImportActions file={row} compact onContinue={() => onContinue(row.id)} />
                        </Group>
                      )}
                    </Group>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  {/* Date over time, so that the counters keep their room. */}
                  {formatDateTime(row.created_at)
                    .split(' ')
                    .map((part) => (
                      <Text key={part} size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {part}
                      </Text>
                    ))}
                </Table.Td>
                {importCounters(row).map((c) => (
                  <Table.Td key={c.key} ta="right">
                    {formatNumber(c.value)}
                  </Table.Td>
                ))}
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

/** A file name may wrap after its separators (`_`, `-`, `.`) rather than inside a word. */
function wrappable(name: string) {
  let offset = 0;
  return name.split(/(?<=[_.-])/).map((part) => {
    const at = offset;
    offset += part.length;
    return (
      <Fragment key={at}>
        {at > 0 && <wbr />}
        {part}
      </Fragment>
    );
  });
}

const EMPTY = {
  parsed_leads_count: 0,
  leads_processed: 0,
  leads_total: 0,
  duplicates_resolved_count: 0,
  leads_failed: 0,
  ignored_phones_count: 0,
  invalid_format_phones_count: 0,
  leads_without_phone: 0,
};
