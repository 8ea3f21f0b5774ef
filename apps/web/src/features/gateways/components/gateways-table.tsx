import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import { ActionIcon, Badge, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { IconPencil, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface Props {
  gateways: TGateway[];
  typeLabel: (type: string) => string;
  testingId: number | null;
  onTest: (gateway: TGateway) => void;
  onEdit: (gateway: TGateway) => void;
  onDelete: (gateway: TGateway) => void;
}

/** The team's gateways; the default one is dimmed and can be neither edited nor deleted (spec). */
export function GatewaysTable({ gateways, typeLabel, testingId, onTest, onEdit, onDelete }: Props) {
  const { t } = useTranslation('gateways');
  const yes = (on: boolean, label: string, color = 'teal') =>
    on ? (
      <Badge size="sm" variant="light" color={color}>
        {label}
      </Badge>
    ) : (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <ScrollTable minWidth={640} verticalSpacing="sm" stickyLast aria-label={t('title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('name')}</Table.Th>
          <Table.Th>{t('type')}</Table.Th>
          <Table.Th>{t('active')}</Table.Th>
          <Table.Th>{t('default')}</Table.Th>
          <Table.Th>{t('allowLookup')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {gateways.map((g) => (
          <Table.Tr key={g.id} style={g.default ? { opacity: 0.6 } : undefined} data-default={g.default || undefined}>
            <Table.Td>
              <Text size="sm" fw={500}>
                {g.name}
              </Text>
            </Table.Td>
            <Table.Td>{typeLabel(g.type)}</Table.Td>
            <Table.Td>{g.active ? yes(true, t('on')) : yes(true, t('off'), 'gray')}</Table.Td>
            <Table.Td>{yes(g.default, t('default'), 'blue')}</Table.Td>
            <Table.Td>{yes(g.allow_lookup, t('lookupOnly'), 'grape')}</Table.Td>
            <Table.Td>
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t('testNamed', { name: g.name })}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t('testNamed', { name: g.name })}
                    loading={testingId === g.id}
                    onClick={() => onTest(g)}
                  >
                    <IconPlugConnected size={16} />
                  </ActionIcon>
                </Tooltip>
                {!g.default && (
                  <>
                    <Tooltip label={t('editNamed', { name: g.name })}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('editNamed', { name: g.name })}
                        onClick={() => onEdit(g)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('deleteNamed', { name: g.name })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('deleteNamed', { name: g.name })}
                        onClick={() => onDelete(g)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
