import { Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatMoney, formatNumber } from '../../../lib/format.ts';
import type { TableState } from '../../../lib/use-table-state.ts';
import { useTransactions, useTransactionTotal } from '../api/get-transactions.ts';
import { HistoryWindowNote } from '../../../components/history-window-note.tsx';
import { useSubscriptions } from '../api/get-subscriptions.ts';
import { localized } from '../plan-text.ts';
import { describeTransaction } from '../transaction-text.ts';

/** Credits (≥ 0) in the success colour, debits in the warning colour (spec section 3). */
export const amountColor = (amount: number) => (amount >= 0 ? 'teal.7' : 'orange.7');

/**
 * Billing history: the user's ledger, paged and sortable, with its totals; `historyDays`: the
 * plan shows only that many days back (the server leaves older rows out), said under the table.
 */
export function TransactionsTable({
  table,
  currency,
  historyDays = null,
}: {
  table: TableState;
  currency: string;
  historyDays?: number | null;
}) {
  const { t, i18n } = useTranslation('billing');
  const query = useTransactions(table.query);
  const total = useTransactionTotal();
  // Plans by id, named in the chosen language (the ledger keeps the name a plan was bought under).
  const catalogue = useSubscriptions().data?.available_plans;
  const planName = (id: number) => {
    const plan = catalogue?.find((p) => p.id === id);
    return plan ? localized(plan.name, i18n.language) : null;
  };

  if (query.isPending) return <LoadingState rows={8} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const rows = query.data.data;

  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" highlightOnHover aria-label={t('transactions.title')}>
          <Table.Thead>
            <Table.Tr>
              <SortHeader field="created_at" sort={table.sort} onSort={table.toggleSort}>
                {t('transactions.date')}
              </SortHeader>
              <SortHeader field="type" sort={table.sort} onSort={table.toggleSort}>
                {t('transactions.type')}
              </SortHeader>
              <Table.Th>{t('transactions.name')}</Table.Th>
              <SortHeader field="count" sort={table.sort} onSort={table.toggleSort} ta="right">
                {t('transactions.count')}
              </SortHeader>
              <SortHeader field="amount" sort={table.sort} onSort={table.toggleSort} ta="right">
                {t('transactions.amount')}
              </SortHeader>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <EmptyState text={t('transactions.empty')} />
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</Table.Td>
                <Table.Td>{t(`transactionTypes.${row.type}`)}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <TransactionWords row={row} planName={planName} />
                </Table.Td>
                <Table.Td ta="right">
                  {formatNumber(row.count)}
                  {row.free_parts > 0 && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      {t('transactions.freeParts', { count: row.free_parts })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right" c={amountColor(row.amount)} fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(row.amount, row.currency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <HistoryWindowNote days={historyDays} />
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        {total.data && (
          <Group gap="md" aria-label={t('transactions.totals')} role="group">
            <Text size="sm">
              {t('transactions.credited')}:{' '}
              <Text span fw={600} c={amountColor(1)}>
                {formatMoney(total.data.credited, currency)}
              </Text>
            </Text>
            <Text size="sm">
              {t('transactions.debited')}:{' '}
              <Text span fw={600} c={amountColor(-1)}>
                {formatMoney(total.data.debited, currency)}
              </Text>
            </Text>
            <Text size="sm">
              {t('transactions.net')}:{' '}
              <Text span fw={700} c={amountColor(total.data.credited + total.data.debited)}>
                {formatMoney(total.data.credited + total.data.debited, currency)}
              </Text>
            </Text>
          </Group>
        )}
      </Group>
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

/** The row in words, with its detail (the order, the reason, what is owed) under it. */
function TransactionWords({
  row,
  planName,
}: {
  row: Parameters<typeof describeTransaction>[0] & { currency: string };
  planName: (id: number) => string | null;
}) {
  const { t } = useTranslation('billing');
  const words = describeTransaction(row, planName);
  return (
    <>
      <Text size="sm">{t(words.key, words.values)}</Text>
      {words.detail && (
        <Text size="xs" c="dimmed">
          {t(words.detail.key, words.detail.values)}
        </Text>
      )}
      {row.debt_change > 0 && (
        <Text size="xs" c="red.7" fw={600}>
          {t('history.owed', { value: formatMoney(row.debt_change, row.currency) })}
        </Text>
      )}
    </>
  );
}
