import { Button, Group, Paper, Stack, Switch, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { StatCards } from '../../../components/stat-cards.tsx';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { LeadsPanel } from '../../../features/leads/components/leads-panel.tsx';
import { useList } from '../../../features/sources/api/get-list.ts';
import { useListAggregations } from '../../../features/sources/api/get-list-aggregations.ts';
import { useUpdateList } from '../../../features/sources/api/update-list.ts';
import { DeleteConfirm } from '../../../features/sources/components/delete-confirm.tsx';
import { NameModal } from '../../../features/sources/components/name-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useIdParam } from '../../use-id-param.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { ImportButton } from './import-button.tsx';

/** `/sources/{id}/{listId}`: the list's counts, its active switch and its leads. */
export function ListPage() {
  const { t } = useTranslation('sources');
  const navigate = useNavigate();
  const sourceId = useIdParam('sourceId');
  const listId = useIdParam('listId');
  const list = useList(listId);
  const counts = useListAggregations(listId);
  const attributes = useAttributes();
  const update = useUpdateList();
  const canManage = usePermission('leads:manage');
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (!listId || !sourceId) return <NotFoundPage />;
  if (list.isPending || attributes.isPending) return <LoadingState rows={10} />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => list.refetch()} />;
  if (attributes.isError) return <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />;
  if (list.data.source_id !== sourceId) return <Navigate to={`/sources/${list.data.source_id}/${listId}`} replace />;
  const active = list.data.status === 'active';

  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="md">
          <Title order={2}>{list.data.name}</Title>
          <Switch
            checked={active}
            label={t(active ? 'active' : 'inactive')}
            aria-label={t('listActive')}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate(
                { id: listId, status: e.currentTarget.checked ? 'active' : 'inactive' },
                { onSuccess: (l) => notifySuccess(t(l.status === 'active' ? 'listActivated' : 'listDeactivated')) },
              )
            }
          />
        </Group>
        <Group gap="xs">
          <ImportButton preset={{ sourceId, listId }} />
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => setRenaming(true)}
          >
            {t('editList')}
          </Button>
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setDeleting(true)}
          >
            {t('deleteList')}
          </Button>
        </Group>
      </Group>
      <StatCards
        loading={counts.isPending}
        items={[
          { label: t('totalLeads'), value: counts.data?.total_leads },
          { label: t('today'), value: counts.data?.total_today },
          { label: t('last30Days'), value: counts.data?.total_last_30_days },
          { label: t('duplicate'), value: counts.data?.duplicate },
        ]}
      />
      <Paper withBorder radius="md" p="md">
        <LeadsPanel
          tableKey="list"
          attributes={attributes.data}
          hrefOf={(lead) => `/sources/${sourceId}/${listId}/${lead.id}`}
          place={{ sourceId, listId }}
          canCreate={canManage}
          canManage={canManage}
        />
      </Paper>
      <NameModal
        opened={renaming}
        title={t('editList')}
        nameLabel={t('listName')}
        submitLabel={t('common:save')}
        withStatus
        initial={{ name: list.data.name, active }}
        onClose={() => setRenaming(false)}
        onSubmit={async ({ name, active: on }) => {
          await update.mutateAsync({ id: listId, name, status: on ? 'active' : 'inactive' });
          notifySuccess(t('saved'));
          setRenaming(false);
        }}
      />
      <DeleteConfirm
        kind="lists"
        targets={deleting ? [list.data] : []}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(`/sources/${sourceId}`, { replace: true })}
      />
    </Stack>
  );
}
