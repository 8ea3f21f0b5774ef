import { Badge, Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { attributeNameLabel } from '../../../lib/attribute-label.ts';
import { formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import type { FailedLead, FailedLeadsPage } from '../api/get-failed-leads.ts';

interface Props {
  query: UseQueryResult<FailedLeadsPage>;
  table: TableState;
}

const SYSTEM = new Set(['Phone', 'Email']);

const valuesOf = (lead: FailedLead, attributeId: number) =>
  lead.lead_values
    .filter((v) => v.attribute.id === attributeId)
    .map((v) => v.value)
    .join('; ');

/** The rows of a file that were not imported: ID, one column per mapped attribute, duplicates, status and why. */
export function FailedLeadsTable({ query, table }: Props) {
  const { t } = useTranslation('imports');

  if (query.isPending) return <LoadingState rows={8} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { data: rows, attributes, orderable } = query.data;
  const sortable = (field: string, label: string, ta?: 'right') =>
    orderable.includes(field) ? (
      <SortHeader field={field} sort={table.sort} onSort={table.toggleSort} ta={ta}>
        {label}
      </SortHeader>
    ) : (
      <Table.Th ta={ta}>{label}</Table.Th>
    );

  return (
    <>
      {/* The reason is what this page is for: it comes right after the row number, never off-screen. */}
      <ScrollTable
        minWidth={Math.max(720, (attributes.length + 5) * 110)}
        maxHeight="calc(100dvh - 260px)"
        highlightOnHover={false}
        aria-label={t('failedLeads.title')}
      >
        <Table.Thead>
          <Table.Tr>
            {sortable('id', t('failedLeads.id'))}
            {sortable('row_number', t('failedLeads.row'), 'right')}
            {sortable('reason', t('failedLeads.reason'))}
            {attributes.map((a) => (
              <Table.Th key={a.id}>{attributeNameLabel(a.name)}</Table.Th>
            ))}
            <Table.Th ta="right">{t('failedLeads.duplicates')}</Table.Th>
            <Table.Th>{t('failedLeads.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={attributes.length + 5}>
                <EmptyState text={t('failedLeads.empty')} />
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((lead) => (
            <Table.Tr key={lead.id} data-row={lead.row_number}>
              <Table.Td>{lead.id}</Table.Td>
              <Table.Td ta="right">{formatNumber(lead.row_number)}</Table.Td>
              <Table.Td miw="min(15rem, 50vw)">
                {/* Shown whole, as it is what this page is for; words break only when longer than the column. */}
                <Text size="sm" c="red.8" style={{ overflowWrap: 'break-word' }}>
                  {translateMessage(lead.reason_message)}
                </Text>
              </Table.Td>
              {attributes.map((a) => (
                <Table.Td key={a.id}>
                  {/* Phones and e-mails (the system attributes' names) read badly broken mid-way. */}
                  <Text size="sm" {...cellText(valuesOf(lead, a.id), { nowrap: SYSTEM.has(a.name) })}>
                    {valuesOf(lead, a.id)}
                  </Text>
                </Table.Td>
              ))}
              <Table.Td ta="right">{formatNumber(lead.duplicates)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color="red" size="sm" style={{ minWidth: 'max-content' }}>
                  {t('failedLeads.failed')}
                </Badge>
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
  );
}
