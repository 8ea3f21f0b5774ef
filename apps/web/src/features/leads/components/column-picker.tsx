import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { attributeColumn, isLockedColumn } from './lead-columns.ts';
import { attributeLabel } from '../../../lib/attribute-label.ts';

interface Props {
  attributes: TLeadAttribute[];
  fixed: { key: string; label: string }[];
  hidden: string[];
  onToggle: (column: string) => void;
}

/** Show or hide columns; the choice is kept per table. Phone and Email stay. */
export function ColumnPicker({ attributes, fixed, hidden, onToggle }: Props) {
  const { t } = useTranslation('leads');
  const items = [
    ...fixed.map((f) => ({ key: f.key, label: f.label, locked: false })),
    ...attributes.map((a) => ({ key: attributeColumn(a), label: attributeLabel(a), locked: isLockedColumn(a) })),
  ];
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
          {t('columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={t('columns')}>
          {items.map((item) => (
            <Checkbox
              key={item.key}
              label={item.label}
              checked={item.locked || !hidden.includes(item.key)}
              disabled={item.locked}
              onChange={() => onToggle(item.key)}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
