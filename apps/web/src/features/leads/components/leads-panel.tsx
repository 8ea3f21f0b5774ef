import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { Button, Group, Switch } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SearchInput } from '../../../components/search-input.tsx';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { useSelection } from '../../../lib/use-selection.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useLeads } from '../api/get-leads.ts';
import { invalidateLeads } from '../api/invalidate-leads.ts';
import { AddLeadModal, type PlaceOption } from './add-lead-modal.tsx';
import { ColumnPicker } from './column-picker.tsx';
import { DeleteLeadsConfirm } from './delete-leads-confirm.tsx';
import { LeadsTable } from './leads-table.tsx';
import { StatusMenu } from './status-menu.tsx';

interface Props {
  /** Key of the table's kept sort and hidden columns (spec: per table). */
  tableKey: string;
  attributes: TLeadAttribute[];
  hrefOf: (lead: TLead) => string;
  place?: { sourceId: number; listId: number };
  places?: PlaceOption[];
  canCreate: boolean;
  canManage: boolean;
}

/** Search, columns, Add Lead, bulk delete and Set status above a leads table. */
export function LeadsPanel({ tableKey, attributes, hrefOf, place, places, canCreate, canManage }: Props) {
  const { t } = useTranslation('leads');
  const queryClient = useQueryClient();
  const table = useTableState(tableKey, { field: 'id', dir: 'desc' });
  // In the address (`?duplicates=1`), so a link can open a table already filtered to duplicates.
  const [params, setParams] = useSearchParams();
  // Held here as well: the switch answers at once, while the address follows as a navigation.
  const [onlyDuplicates, setOnly] = useState(params.get('duplicates') === '1');
  const setOnlyDuplicates = (on: boolean) => {
    setOnly(on);
    setParams(
      (p) => {
        if (on) p.set('duplicates', '1');
        else p.delete('duplicates');
        return p;
      },
      { replace: true },
    );
    table.setPage(1);
  };
  const leads = useLeads(place?.listId, onlyDuplicates ? { ...table.query, duplicates: '1' } : table.query);
  const rows = leads.data?.data ?? [];
  const selection = useSelection(rows.map((l) => l.id));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<number[]>([]);

  // An operator's new lead refreshes everyone else's tables (spec section 6).
  useServerEvent('TeamOperatorAction', () => void invalidateLeads(queryClient));

  const chosen = rows.filter((l) => selection.selected.includes(l.id));
  const sameStatus = chosen.every((l) => l.status === chosen[0]?.status) ? chosen[0]?.status : undefined;

  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm">
        <Group gap="md">
          <SearchInput value={table.search} onChange={table.setSearch} label={t('searchLeads')} />
          <Switch
            label={t('onlyDuplicates')}
            checked={onlyDuplicates}
            onChange={(e) => setOnlyDuplicates(e.currentTarget.checked)}
          />
        </Group>
        <Group gap="xs">
          {canManage && selection.selected.length > 0 && (
            <>
              <StatusMenu ids={selection.selected} current={sameStatus} onDone={selection.clear} />
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(selection.selected)}
              >
                {t('deleteSelected', { count: selection.selected.length })}
              </Button>
            </>
          )}
          <ColumnPicker
            attributes={attributes}
            fixed={[
              { key: 'updated_at', label: t('updatedDate') },
              { key: 'duplicates', label: t('duplicates') },
            ]}
            hidden={table.hidden}
            onToggle={table.toggleHidden}
          />
          {canCreate && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
              {t('addLead')}
            </Button>
          )}
        </Group>
      </Group>
      <LeadsTable
        query={leads}
        attributes={attributes}
        table={table}
        hrefOf={hrefOf}
        selection={canManage ? selection : undefined}
        place={canCreate ? place : undefined}
      />
      {canCreate && (
        <AddLeadModal
          opened={adding}
          onClose={() => setAdding(false)}
          attributes={attributes}
          place={place}
          places={places}
        />
      )}
      <DeleteLeadsConfirm ids={deleting} onClose={() => setDeleting([])} onDeleted={selection.clear} />
    </>
  );
}
