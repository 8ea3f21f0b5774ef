import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { ActionIcon, Badge, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { attributeLabel } from '../../../lib/attribute-label.ts';

interface Props {
  attributes: TLeadAttribute[];
  onEdit: (attribute: TLeadAttribute) => void;
  onDelete: (attribute: TLeadAttribute) => void;
}

/** Lead attributes in their order; Phone and Email are the system's and locked. */
export function AttributesTable({ attributes, onEdit, onDelete }: Props) {
  const { t } = useTranslation('settings');
  return (
    <ScrollTable minWidth={560} verticalSpacing="sm" stickyLast aria-label={t('attributes.title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={90}>{t('attributes.sortOrder')}</Table.Th>
          <Table.Th>{t('attributes.name')}</Table.Th>
          <Table.Th>{t('attributes.type')}</Table.Th>
          <Table.Th>{t('attributes.slug')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {attributes.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{a.sort_order}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={500}>
                  {attributeLabel(a)}
                </Text>
                {a.is_system && (
                  <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} aria-hidden />}>
                    {t('attributes.system')}
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>{t(`attributes.types.${a.type}`)}</Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace" c="dimmed">
                {a.slug}
              </Text>
            </Table.Td>
            <Table.Td>
              {!a.is_system && (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label={t('attributes.editNamed', { name: a.name })}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t('attributes.editNamed', { name: a.name })}
                      onClick={() => onEdit(a)}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('attributes.deleteNamed', { name: a.name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('attributes.deleteNamed', { name: a.name })}
                      onClick={() => onDelete(a)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
