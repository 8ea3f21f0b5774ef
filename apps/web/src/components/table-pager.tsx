import { PAGE_SIZES } from '@herald/shared/common/pagination.schemas';
import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format.ts';

interface Props {
  page: number;
  lastPage: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
  sizes?: readonly number[];
}

/** Page links, the total and the page size (15 / 50 / 100) under a table. */
export function TablePager({ page, lastPage, total, limit, onPage, onLimit, sizes = PAGE_SIZES }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('table.total', { total: formatNumber(total) })}
        </Text>
        <Select
          aria-label={t('table.pageSize')}
          size="xs"
          w={80}
          data={sizes.map((s) => String(s))}
          value={String(limit)}
          onChange={(value) => value && onLimit(Number(value))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {lastPage > 1 && (
        <Pagination
          size="sm"
          total={lastPage}
          value={page}
          onChange={onPage}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
        />
      )}
    </Group>
  );
}
