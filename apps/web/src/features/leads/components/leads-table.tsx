import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead, TLeadPage } from '@herald/shared/leads/leads.schemas';
import { Anchor, Checkbox, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { cellText, ScrollTable } from '../../../components/scroll-table.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import type { useSelection } from '../../../lib/use-selection.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import { attributeColumn, isLockedColumn, valuesOf } from './lead-columns.ts';
import { LeadStatusBadge } from './lead-status-badge.tsx';
import { QuickInsertRow } from './quick-insert-row.tsx';
import { attributeLabel } from '../../../lib/attribute-label.ts';
import { SelectAllHeader } from '../../../components/select-all-header.tsx';
import { PhoneCheckOf } from '../../../components/phone-check.tsx';

interface Props {
  query: UseQueryResult<TLeadPage>;
  attributes: TLeadAttribute[];
  table: TableState;
  hrefOf: (lead: TLead) => string;
  selection?: ReturnType<typeof useSelection>;
  /** Present on a list's screen: shows the ID column and the quick-insert row. */
  place?: { sourceId: number; listId: number };
}

/** A page of leads: one column per attribute, sortable dates and duplicates, status chips. */
export function LeadsTable({ query, attributes, table, hrefOf, selection, place }: Props) {
  const { t } = useTranslation('leads');
  const navigate = useNavigate();
  const show = (key: string) => !table.hidden.includes(key);
  const columns = attributes.filter((a) => isLockedColumn(a) || show(attributeColumn(a)));
  const withId = Boolean(place);
  const before = (selection ? 1 : 0) + (withId ? 1 : 0) + (show('updated_at') ? 1 : 0);
  const after = (show('duplicates') ? 1 : 0) + 1;
  const span = before + columns.length + after;
  // On a phone the table takes its content's width (dates fold onto two lines), so the key columns
  // come first into view; wider screens give every column room: 90 px each keeps the spec's columns
  // and three attributes of the team's own within a 1366-pixel screen, status included.
  const narrow = useMediaQuery('(max-width: 36em)');

  if (query.isPending) return <LoadingState rows={8} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const leads = query.data.data;

  return (
    <>
      <ScrollTable
        minWidth={narrow ? 0 : Math.max(720, span * 90)}
        stickyColumns={selection ? 2 : 1}
        stickyLast
        // Gutters of 6 px: a row with three attributes of the team's own keeps its status in view.
        horizontalSpacing={6}
        aria-label={t('leadsTitle')}
      >
        <Table.Thead>
          <Table.Tr>
            {selection && <SelectAllHeader selection={selection} />}
            {withId && (
              <SortHeader field="id" sort={table.sort} onSort={table.toggleSort}>
                {t('id')}
              </SortHeader>
            )}
            {show('updated_at') && (
              <SortHeader field="updated_at" sort={table.sort} onSort={table.toggleSort}>
                {t('updatedDate')}
              </SortHeader>
            )}
            {columns.map((a) => (
              <Table.Th key={a.id}>{attributeLabel(a)}</Table.Th>
            ))}
            {show('duplicates') && (
              <SortHeader field="duplicates" sort={table.sort} onSort={table.toggleSort} ta="right">
                {t('duplicates')}
              </SortHeader>
            )}
            <SortHeader field="status" sort={table.sort} onSort={table.toggleSort}>
              {t('statusLabel')}
            </SortHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {place && <QuickInsertRow place={place} attributes={columns} before={before} after={after} />}
          {leads.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={span}>
                <EmptyState text={t('noLeads')} hint={place ? t('noLeadsInListHint') : undefined} />
              </Table.Td>
            </Table.Tr>
          )}
          {leads.map((lead) => {
            const dimmed = lead.status === 'blacklisted';
            const href = hrefOf(lead);
            const open = (
              <Anchor
                component={Link}
                to={href}
                size="sm"
                c="inherit"
                aria-label={t('openLead', { id: lead.id })}
                onClick={(e) => e.stopPropagation()}
              >
                {withId ? lead.id : <FoldedDateTime value={lead.updated_at} />}
              </Anchor>
            );
            return (
              <Table.Tr
                key={lead.id}
                onClick={() => navigate(href)}
                style={{ cursor: 'pointer', opacity: dimmed ? 0.5 : undefined }}
                data-status={lead.status}
              >
                {selection && (
                  <Table.Td onClick={(e) => e.stopPropagation()}>
                    <Checkbox
                      aria-label={t('selectLead', { id: lead.id })}
                      checked={selection.selected.includes(lead.id)}
                      onChange={() => selection.toggle(lead.id)}
                    />
                  </Table.Td>
                )}
                {withId && <Table.Td>{open}</Table.Td>}
                {show('updated_at') && (
                  <Table.Td>{withId ? <FoldedDateTime value={lead.updated_at} /> : open}</Table.Td>
                )}
                {columns.map((a) => (
                  <Table.Td key={a.id}>
                    <Text size="sm" {...cellText(valuesOf(lead, a.id), { nowrap: a.type === 'phone' })}>
                      {a.type === 'email' ? atTheAt(valuesOf(lead, a.id)) : valuesOf(lead, a.id)}
                    </Text>
                    {a.type === 'phone' && <PhoneCheckOf lead={lead} attributeId={a.id} />}
                  </Table.Td>
                ))}
                {show('duplicates') && (
                  <Table.Td ta="right">
                    {lead.duplicates > 0 ? (
                      // Opens the lead with its duplicates shown, as the count on the lead's page does.
                      <Anchor
                        component={Link}
                        to={`${href}?show=duplicates`}
                        size="sm"
                        title={t('duplicatesOf.show')}
                        onClick={(e) => e.stopPropagation()}
                        data-duplicates-link
                      >
                        {formatNumber(lead.duplicates)}
                      </Anchor>
                    ) : (
                      formatNumber(lead.duplicates)
                    )}
                  </Table.Td>
                )}
                <Table.Td>
                  <LeadStatusBadge status={lead.status} wrap />
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

/**
 * An address that may fold after its `@` (and nowhere else) when the column is narrow: the whole
 * row, up to its status, keeps within a laptop's width with the team's own attributes beside it.
 */
function atTheAt(value: string) {
  const nowrap = { whiteSpace: 'nowrap' } as const;
  return value.split('; ').map((address, i) => {
    const at = address.indexOf('@') + 1;
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: a lead may hold one address twice
      <Fragment key={i}>
        {i > 0 && '; '}
        <span style={nowrap}>{at > 0 ? address.slice(0, at) : address}</span>
        {at > 0 && (
          <>
            <wbr />
            <span style={nowrap}>{address.slice(at)}</span>
          </>
        )}
      </Fragment>
    );
  });
}

/** A date and time that may fold between the two (never inside either) when the column is narrow. */
function FoldedDateTime({ value }: { value: string }) {
  const [date, time] = formatDateTime(value).split(' ');
  return (
    <>
      <span style={{ whiteSpace: 'nowrap' }}>{date}</span> <span style={{ whiteSpace: 'nowrap' }}>{time}</span>
    </>
  );
}
