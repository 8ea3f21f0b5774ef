import { Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../../components/search-input.tsx';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useImportHistory } from '../../../features/imports/api/get-import-history.ts';
import { ImportHistoryTable } from '../../../features/imports/components/import-history-table.tsx';
import { useTableState } from '../../../lib/use-table-state.ts';
import { ContinueImport } from './continue-import.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { historyDaysOf } from '../../../features/billing/plan-text.ts';
import { HistoryWindowNote } from '../../../components/history-window-note.tsx';

/** Spec section 9: import history shows 15 per page. */
const HISTORY_PAGE_SIZE = 15;

/** `/settings/import-history`: every import of the team, newest first. */
export function ImportHistoryPage() {
  const { t } = useTranslation('imports');
  const table = useTableState('import-history', { field: 'created_at', dir: 'desc' }, HISTORY_PAGE_SIZE);
  const history = useImportHistory(table.query);
  const canAct = usePermission('imports:create');
  const { data: user } = useCurrentUser();
  const [continuing, setContinuing] = useState<number | null>(null);

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" maw={560}>
          {t('history.intro')}
        </Text>
        <SearchInput value={table.search} onChange={table.setSearch} label={t('history.search')} />
      </Group>
      <ImportHistoryTable
        query={history}
        table={table}
        hrefOf={(id) => `/settings/import-history/${id}`}
        canAct={canAct}
        onContinue={setContinuing}
      />
      <HistoryWindowNote days={historyDaysOf(user?.subscriptions)} />
      {continuing !== null && <ContinueImport fileId={continuing} onClose={() => setContinuing(null)} />}
    </Stack>
  );
}
