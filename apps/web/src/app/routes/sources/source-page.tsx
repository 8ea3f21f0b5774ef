import type { TList } from '@herald/shared/sources/sources.schemas';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { StatCards } from '../../../components/stat-cards.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useCreateList } from '../../../features/sources/api/create-list.ts';
import { useSource } from '../../../features/sources/api/get-source.ts';
import { useSourceAggregations } from '../../../features/sources/api/get-source-aggregations.ts';
import { useSourceLists } from '../../../features/sources/api/get-source-lists.ts';
import { useUpdateList } from '../../../features/sources/api/update-list.ts';
import { useUpdateSource } from '../../../features/sources/api/update-source.ts';
import { CountsTable } from '../../../features/sources/components/counts-table.tsx';
import { DeleteConfirm } from '../../../features/sources/components/delete-confirm.tsx';
import { NameModal } from '../../../features/sources/components/name-modal.tsx';
import { useIdParam } from '../../use-id-param.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { LookupStartButton } from '../lookups/lookup-start-button.tsx';
import { ImportButton } from './import-button.tsx';

/** `/sources/{id}`: the source's counts and its lists. */
export function SourcePage() {
  const { t } = useTranslation('sources');
  const navigate = useNavigate();
  const sourceId = useIdParam('sourceId');
  const source = useSource(sourceId);
  const counts = useSourceAggregations(sourceId);
  const table = useTableState('lists', { field: 'created_at', dir: 'desc' });
  const lists = useSourceLists(sourceId, table.query);
  const createList = useCreateList();
  const updateList = useUpdateList();
  const updateSource = useUpdateSource();
  const [modal, setModal] = useState<'create' | 'rename' | null>(null);
  const [editing, setEditing] = useState<TList | null>(null);
  const [deleting, setDeleting] = useState<TList[]>([]);
  const [deletingSource, setDeletingSource] = useState(false);

  if (!sourceId) return <NotFoundPage />;
  if (source.isPending) return <LoadingState rows={8} />;
  if (source.isError) return <ErrorState error={source.error} onRetry={() => source.refetch()} />;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{source.data.name}</Title>
        <Group gap="xs">
          <ImportButton preset={{ sourceId }} />
          <Button
            variant="default"
            leftSection={<IconPencil size={16} aria-hidden />}
            onClick={() => setModal('rename')}
          >
            {t('editSource')}
          </Button>
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => setDeletingSource(true)}
          >
            {t('deleteSource')}
          </Button>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setModal('create')}>
            {t('createList')}
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
        <CountsTable
          kind="lists"
          label={t('listsTitle')}
          nameHeader={t('listName')}
          emptyText={t('noLists')}
          query={lists}
          table={table}
          hrefOf={(row) => `/sources/${sourceId}/${row.id}`}
          canManage
          onEdit={setEditing}
          onDelete={setDeleting}
          selectionActions={(rows) => <LookupStartButton kind="lists" rows={rows} />}
        />
      </Paper>
      <NameModal
        opened={modal === 'create'}
        title={t('createList')}
        nameLabel={t('listName')}
        submitLabel={t('create')}
        withStatus
        onClose={() => setModal(null)}
        onSubmit={async ({ name, active }) => {
          const list = await createList.mutateAsync({ sourceId, name, status: active ? 'active' : 'inactive' });
          notifySuccess(t('listCreated', { name: list.name }));
          setModal(null);
          navigate(`/sources/${sourceId}/${list.id}`);
        }}
      />
      <NameModal
        opened={modal === 'rename'}
        title={t('editSource')}
        nameLabel={t('sourceName')}
        submitLabel={t('common:save')}
        initial={{ name: source.data.name, active: true }}
        onClose={() => setModal(null)}
        onSubmit={async ({ name }) => {
          await updateSource.mutateAsync({ id: sourceId, name });
          notifySuccess(t('saved'));
          setModal(null);
        }}
      />
      <NameModal
        opened={editing !== null}
        title={t('editList')}
        nameLabel={t('listName')}
        submitLabel={t('common:save')}
        withStatus
        initial={editing ? { name: editing.name, active: editing.status === 'active' } : undefined}
        onClose={() => setEditing(null)}
        onSubmit={async ({ name, active }) => {
          if (!editing) return;
          await updateList.mutateAsync({ id: editing.id, name, status: active ? 'active' : 'inactive' });
          notifySuccess(t('saved'));
          setEditing(null);
        }}
      />
      <DeleteConfirm kind="lists" targets={deleting} onClose={() => setDeleting([])} />
      <DeleteConfirm
        kind="sources"
        targets={deletingSource ? [source.data] : []}
        onClose={() => setDeletingSource(false)}
        onDeleted={() => navigate('/sources', { replace: true })}
      />
    </Stack>
  );
}
