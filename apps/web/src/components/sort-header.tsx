import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { TableSort } from '../lib/use-table-state.ts';

interface Props {
  field: string;
  sort: TableSort;
  onSort: (field: string) => void;
  children: ReactNode;
  ta?: 'left' | 'right';
}

/** A column header that sorts its table; `aria-sort` tells assistive tech the direction. */
export function SortHeader({ field, sort, onSort, children, ta }: Props) {
  const active = sort.field === field;
  const Icon = active ? (sort.dir === 'asc' ? IconArrowUp : IconArrowDown) : IconArrowsSort;
  return (
    <Table.Th aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} ta={ta}>
      <UnstyledButton onClick={() => onSort(field)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap" justify={ta === 'right' ? 'flex-end' : undefined}>
          {children}
          <Icon size={14} stroke={1.6} aria-hidden opacity={active ? 1 : 0.4} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
