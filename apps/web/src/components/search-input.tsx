import { CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The search box above a table; the table state debounces what is typed. */
export function SearchInput({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      aria-label={label ?? t('table.search')}
      placeholder={label ?? t('table.search')}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      rightSection={
        value ? <CloseButton size="sm" aria-label={t('table.clearSearch')} onClick={() => onChange('')} /> : null
      }
      w={{ base: '100%', xs: 280 }}
    />
  );
}
