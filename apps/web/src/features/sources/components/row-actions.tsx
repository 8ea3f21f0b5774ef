import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Edit and delete buttons at the end of a row; clicks do not open the row. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('sources');
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end" onClick={(e) => e.stopPropagation()}>
      <Tooltip label={t('editNamed', { name })}>
        <ActionIcon variant="subtle" color="gray" aria-label={t('editNamed', { name })} onClick={onEdit}>
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('deleteNamed', { name })}>
        <ActionIcon variant="subtle" color="red" aria-label={t('deleteNamed', { name })} onClick={onDelete}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
