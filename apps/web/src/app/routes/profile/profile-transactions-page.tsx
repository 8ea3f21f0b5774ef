import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { TransactionsTable } from '../../../features/billing/components/transactions-table.tsx';
import { historyDaysOf } from '../../../features/billing/plan-text.ts';
import { useTableState } from '../../../lib/use-table-state.ts';

/** Tables show 15 a page by default (spec section 9). */
const PAGE_SIZE = 15;

/** `/profile/transactions`: billing history. */
export function ProfileTransactionsPage() {
  const { t } = useTranslation('billing');
  const { data: user } = useCurrentUser();
  const table = useTableState('transactions', { field: 'created_at', dir: 'desc' }, PAGE_SIZE);
  return (
    <Stack>
      <Title order={3}>{t('transactions.title')}</Title>
      <TransactionsTable
        table={table}
        currency={user?.balance_currency ?? 'UAH'}
        historyDays={historyDaysOf(user?.subscriptions)}
      />
    </Stack>
  );
}
