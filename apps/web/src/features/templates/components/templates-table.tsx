import type { TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { estimateSms } from '@herald/shared/sms/sms-parts';
import { ActionIcon, Badge, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';

/** Templates; a row of the team's own opens its editor, a default one has no actions (spec section 2). */
export function TemplatesTable({
  rows,
  canManage,
  onEdit,
  onDelete,
}: {
  rows: TSmsTemplate[];
  canManage: boolean;
  onEdit: (row: TSmsTemplate) => void;
  onDelete: (row: TSmsTemplate) => void;
}) {
  const { t } = useTranslation('templates');
  return (
    <ScrollTable minWidth={640} verticalSpacing="sm" stickyLast aria-label={t('title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('fields.name')}</Table.Th>
          <Table.Th>{t('fields.type')}</Table.Th>
          <Table.Th>{t('fields.message')}</Table.Th>
          <Table.Th>{t('parts')}</Table.Th>
          <Table.Th>{t('createdAt')}</Table.Th>
          <Table.Th w={60}>
            <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => {
          const editable = canManage && !row.default;
          const count = estimateSms(row.message);
          return (
            <Table.Tr
              key={row.id}
              style={editable ? { cursor: 'pointer' } : undefined}
              onClick={editable ? () => onEdit(row) : undefined}
            >
              <Table.Td>
                <Text size="sm" fw={500}>
                  {row.name}{' '}
                  {row.default && (
                    <Badge size="xs" variant="light">
                      {t('default')}
                    </Badge>
                  )}
                </Text>
              </Table.Td>
              <Table.Td>{t(`types.${row.type_id}`)}</Table.Td>
              <Table.Td maw={360}>
                <Text size="sm" lineClamp={2}>
                  {row.message}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {count.parts} · {count.encoding === 'GSM-7' ? 'GSM' : 'Unicode'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {row.default ? '—' : formatDateTime(row.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                {editable && (
                  <Tooltip label={t('delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('deleteNamed', { name: row.name })}
                      onClick={(e) => {
                        e.stopPropagation();
                        onDelete(row);
                      }}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </ScrollTable>
  );
}
