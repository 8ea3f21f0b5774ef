import { Checkbox, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { useSelection } from '../lib/use-selection.ts';

/** The header cell of a table's tick column: ticks every row of the page, or none. */
export function SelectAllHeader({ selection }: { selection: ReturnType<typeof useSelection> }) {
  const { t } = useTranslation();
  return (
    <Table.Th>
      <Checkbox
        aria-label={t('common:table.selectAll')}
        checked={selection.allOnPage}
        indeterminate={selection.some}
        onChange={selection.toggleAll}
      />
    </Table.Th>
  );
}
