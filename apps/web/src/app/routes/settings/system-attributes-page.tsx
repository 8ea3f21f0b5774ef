import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useDeleteAttribute } from '../../../features/attributes/api/delete-attribute.ts';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { AddAttributesModal } from '../../../features/attributes/components/add-attributes-modal.tsx';
import { AttributesTable } from '../../../features/attributes/components/attributes-table.tsx';
import { EditAttributeModal } from '../../../features/attributes/components/edit-attribute-modal.tsx';
import { notifySuccess } from '../../../lib/notify.ts';

/** `/settings/system-attributes`: the lead attributes (one column each in the lead tables). */
export function SystemAttributesPage() {
  const { t } = useTranslation('settings');
  const attributes = useAttributes();
  const remove = useDeleteAttribute();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TLeadAttribute | null>(null);
  const [deleting, setDeleting] = useState<TLeadAttribute | null>(null);
  const list = attributes.data ?? [];

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" maw={560}>
          {t('attributes.intro')}
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('attributes.add')}
        </Button>
      </Group>
      {attributes.isPending ? (
        <LoadingState rows={5} />
      ) : attributes.isError ? (
        <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState text={t('attributes.empty')} />
      ) : (
        <AttributesTable attributes={list} onEdit={setEditing} onDelete={setDeleting} />
      )}
      <AddAttributesModal
        opened={adding}
        onClose={() => setAdding(false)}
        nextOrder={list.reduce((max, a) => Math.max(max, a.sort_order), 0) + 1}
      />
      <EditAttributeModal attribute={editing} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={t('attributes.deleteTitle')}
        message={t('attributes.deleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('common:delete')}
        danger
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => notifySuccess(t('attributes.deleted', { name: deleting.name })),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </Stack>
  );
}
