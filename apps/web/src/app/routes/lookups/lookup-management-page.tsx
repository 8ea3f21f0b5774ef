import { LOOKUPS_PAGE_SIZE, type TLookup } from '@herald/shared/lookups/lookups.schemas';
import { Button, Group, Paper, Stack, Title, Tooltip } from '@mantine/core';
import { IconDatabase, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { useDeleteLookups } from '../../../features/lookups/api/edit-lookups.ts';
import { useLookups } from '../../../features/lookups/api/get-lookups.ts';
import { useMoveLookups } from '../../../features/lookups/api/lookup-moves.ts';
import { LookupEditModal } from '../../../features/lookups/components/lookup-edit-modal.tsx';
import { LookupsTable, lookupName } from '../../../features/lookups/components/lookups-table.tsx';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { LookupFundsAlert } from './lookup-funds-alert.tsx';

/**
 * `/lookup-management`: the team's lookups, 50 a page, kept live by `LookupStatus` events. The
 * toolbar starts the selected ones (disabled when all of them run), stops and deletes them; a row
 * opens its gateway.
 */
export function LookupManagementPage() {
  const { t } = useTranslation('lookups');
  const table = useTableState('lookups', { field: 'created_at', dir: 'desc' }, LOOKUPS_PAGE_SIZE);
  const lookups = useLookups(table.query);
  const rows = lookups.data?.data ?? [];
  const selection = useSelection(rows.map((r) => r.id));
  const picked = rows.filter((r) => selection.selected.includes(r.id));
  const move = useMoveLookups();
  const remove = useDeleteLookups();
  const [editing, setEditing] = useState<TLookup | null>(null);
  const [deleting, setDeleting] = useState<TLookup[]>([]);
  // Completed lookups have nothing left to run; "start" is for those not already running.
  const startable = picked.filter((r) => r.status !== 1 && r.status !== 3);
  const stoppable = picked.filter((r) => r.status === 1);

  const bulk = (kind: 'start' | 'stop', targets: TLookup[]) =>
    move.mutate(
      { kind, ids: targets.map((r) => r.id) },
      {
        onSuccess: (answer) => {
          notifySuccess(translateMessage(answer.message) ?? '');
          selection.clear();
        },
      },
    );

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      {rows.some((r) => r.status === 2 && r.reason === 'balance_not_enough_lookup') && <LookupFundsAlert />}
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm" mih={36} gap="xs">
          <SearchInput value={table.search} onChange={table.setSearch} />
          {picked.length > 0 && (
            <Group gap="xs">
              <Tooltip label={t('allRunning')} disabled={startable.length > 0}>
                <Button
                  variant="light"
                  leftSection={<IconPlayerPlay size={16} aria-hidden />}
                  disabled={startable.length === 0}
                  loading={move.isPending && move.variables?.kind === 'start'}
                  onClick={() => bulk('start', startable)}
                >
                  {t('startSelected', { count: picked.length })}
                </Button>
              </Tooltip>
              <Button
                variant="light"
                color="yellow"
                leftSection={<IconPlayerPause size={16} aria-hidden />}
                disabled={stoppable.length === 0}
                loading={move.isPending && move.variables?.kind === 'stop'}
                onClick={() => bulk('stop', stoppable)}
              >
                {t('stopSelected', { count: picked.length })}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(picked)}
              >
                {t('deleteSelected', { count: picked.length })}
              </Button>
            </Group>
          )}
        </Group>
        <LookupsTable
          query={lookups}
          table={table}
          selection={selection}
          busy={move.isPending}
          empty={
            <EmptyState text={t('empty')} hint={table.search ? undefined : t('emptyHint')}>
              {!table.search && (
                <Button component={Link} to="/sources" leftSection={<IconDatabase size={16} aria-hidden />}>
                  {t('toSources')}
                </Button>
              )}
            </EmptyState>
          }
          onOpen={setEditing}
          onMove={(row, status) =>
            move.mutate(
              { kind: 'status', id: row.id, status },
              { onSuccess: (answer) => notifySuccess(translateMessage(answer.message) ?? '') },
            )
          }
        />
      </Paper>
      <LookupEditModal
        lookup={editing && (rows.find((r) => r.id === editing.id) ?? editing)}
        onClose={() => setEditing(null)}
      />
      <ConfirmModal
        opened={deleting.length > 0}
        title={t('deleteTitle', { count: deleting.length })}
        message={
          deleting.length === 1
            ? t('deleteOne', { name: deleting[0] ? lookupName(deleting[0]) : '' })
            : t('deleteMany', { count: deleting.length })
        }
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting([])}
        onConfirm={async () => {
          const done = await remove.mutateAsync(deleting.map((r) => r.id));
          if (done) notifySuccess(t('deleted', { count: done }));
          selection.clear();
          setDeleting([]);
        }}
      />
    </Stack>
  );
}
