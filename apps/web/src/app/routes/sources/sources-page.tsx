import type { TSource } from '@herald/shared/sources/sources.schemas';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { StatCards } from '../../../components/stat-cards.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useCreateSource } from '../../../features/sources/api/create-source.ts';
import { useSources } from '../../../features/sources/api/get-sources.ts';
import { useSourcesTotal } from '../../../features/sources/api/get-sources-total.ts';
import { useUpdateSource } from '../../../features/sources/api/update-source.ts';
import { CountsTable } from '../../../features/sources/components/counts-table.tsx';
import { DeleteConfirm } from '../../../features/sources/components/delete-confirm.tsx';
import { NameModal } from '../../../features/sources/components/name-modal.tsx';
import { LookupStartButton } from '../lookups/lookup-start-button.tsx';
import { ImportButton } from './import-button.tsx';

/** `/sources`: team totals, then every source with its counts. */
export function SourcesPage() {
  const { t } = useTranslation('sources');
  const navigate = useNavigate();
  const table = useTableState('sources', { field: 'created_at', dir: 'desc' });
  const sources = useSources(table.query);
  const total = useSourcesTotal();
  const create = useCreateSource();
  const update = useUpdateSource();
  // The first-day checklist's Create source lands here with the form open.
  const location = useLocation();
  const [creating, setCreating] = useState(Boolean((location.state as { create?: boolean } | null)?.create));
  const [editing, setEditing] = useState<TSource | null>(null);
  const [deleting, setDeleting] = useState<TSource[]>([]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('sourcesTitle')}</Title>
        <Group gap="xs">
          <ImportButton />
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('createSource')}
          </Button>
        </Group>
      </Group>
      <StatCards
        loading={total.isPending}
        items={[
          { label: t('totalLeads'), value: total.data?.total_leads },
          { label: t('today'), value: total.data?.total_today },
          { label: t('duplicatesToday'), value: total.data?.duplicates_today },
        ]}
      />
      <Paper withBorder radius="md" p="md">
        <CountsTable
          kind="sources"
          label={t('sourcesTitle')}
          nameHeader={t('sourceName')}
          emptyText={t('noSources')}
          emptyHint={table.search ? undefined : t('noSourcesHint')}
          emptyAction={
            table.search ? undefined : (
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
                {t('createFirstSource')}
              </Button>
            )
          }
          query={sources}
          table={table}
          hrefOf={(row) => `/sources/${row.id}`}
          canManage
          onEdit={setEditing}
          onDelete={setDeleting}
          selectionActions={(rows) => <LookupStartButton kind="sources" rows={rows} />}
        />
      </Paper>
      <NameModal
        opened={creating}
        title={t('createSource')}
        nameLabel={t('sourceName')}
        submitLabel={t('create')}
        onClose={() => setCreating(false)}
        onSubmit={async ({ name }) => {
          const source = await create.mutateAsync({ name });
          notifySuccess(t('sourceCreated', { name: source.name }));
          setCreating(false);
          navigate(`/sources/${source.id}`);
        }}
      />
      <NameModal
        opened={editing !== null}
        title={t('editSource')}
        nameLabel={t('sourceName')}
        submitLabel={t('common:save')}
        initial={editing ? { name: editing.name, active: editing.status === 'active' } : undefined}
        onClose={() => setEditing(null)}
        onSubmit={async ({ name }) => {
          if (!editing) return;
          await update.mutateAsync({ id: editing.id, name });
          notifySuccess(t('saved'));
          setEditing(null);
        }}
      />
      <DeleteConfirm kind="sources" targets={deleting} onClose={() => setDeleting([])} />
    </Stack>
  );
}
