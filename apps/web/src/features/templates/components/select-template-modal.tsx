import type { TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { estimateSms } from '@herald/shared/sms/sms-parts';
import { Badge, Modal, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { SearchInput } from '../../../components/search-input.tsx';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { notifyError } from '../../../lib/notify.ts';
import { getTemplate } from '../api/get-template.ts';
import { useTemplates } from '../api/get-templates.ts';

/** "Select or load template": pick one; it is read afresh and handed to the composer. */
export function SelectTemplateModal({
  opened,
  onClose,
  onSelect,
}: {
  opened: boolean;
  onClose: () => void;
  onSelect: (template: TSmsTemplate) => void;
}) {
  const { t } = useTranslation('templates');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 500);
  const templates = useTemplates({ limit: 100, search: debounced || undefined }, opened);
  const rows = templates.data?.data ?? [];

  const choose = async (id: number) => {
    try {
      onSelect(await getTemplate(id));
      onClose();
    } catch (error) {
      notifyError(describeApiError(error));
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('select.title')} size="lg" centered>
      <Stack>
        <SearchInput value={search} onChange={setSearch} />
        {templates.isPending ? (
          <LoadingState rows={3} />
        ) : templates.isError ? (
          <ErrorState error={templates.error} onRetry={() => templates.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState text={t('empty')} />
        ) : (
          <Table highlightOnHover aria-label={t('select.title')}>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr
                  key={row.id}
                  style={{ cursor: 'pointer' }}
                  tabIndex={0}
                  aria-label={t('select.load', { name: row.name })}
                  onClick={() => choose(row.id)}
                  onKeyDown={(e) => e.key === 'Enter' && choose(row.id)}
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
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {row.message}
                    </Text>
                  </Table.Td>
                  <Table.Td w={90}>
                    <Text size="xs" c="dimmed">
                      {t('partsShort', { count: estimateSms(row.message).parts })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Modal>
  );
}
