import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { LeadsPanel } from '../../../features/leads/components/leads-panel.tsx';
import { useAllSourcesWithLists } from '../../../features/sources/api/get-all-sources-with-lists.ts';

/** `/leads`: every lead of the team. Operators work here only. */
export function LeadsPage() {
  const { t } = useTranslation('leads');
  const attributes = useAttributes();
  const canCreate = usePermission('leads:create');
  const canManage = usePermission('leads:manage');
  const places = useAllSourcesWithLists(canCreate);

  return (
    <Stack>
      <Title order={2}>{t('leadsTitle')}</Title>
      <Paper withBorder radius="md" p="md">
        {attributes.isPending ? (
          <LoadingState rows={8} />
        ) : attributes.isError ? (
          <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />
        ) : (
          <LeadsPanel
            tableKey="leads"
            attributes={attributes.data}
            hrefOf={(lead) => `/leads/${lead.id}`}
            places={places.data?.data}
            canCreate={canCreate}
            canManage={canManage}
          />
        )}
      </Paper>
    </Stack>
  );
}
