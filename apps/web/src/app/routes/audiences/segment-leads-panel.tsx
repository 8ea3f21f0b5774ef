import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { Button, Group } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../../components/search-input.tsx';
import { useTableState } from '../../../lib/use-table-state.ts';
import { ColumnPicker } from '../../../features/leads/components/column-picker.tsx';
import { LeadsTable } from '../../../features/leads/components/leads-table.tsx';
import { useSegmentLeads } from '../../../features/segments/api/get-segment-leads.ts';
import { ExportModal } from '../../../features/segments/components/export-modal.tsx';

interface Props {
  segmentId: number;
  attributes: TLeadAttribute[];
  hrefOf: (lead: TLead) => string;
}

/**
 * A segment's leads: search, sort, column choice, paging and CSV export of what is shown. Composed
 * here, in the page, because it joins two features: the leads table and the segment's export.
 */
export function SegmentLeadsPanel({ segmentId, attributes, hrefOf }: Props) {
  const { t } = useTranslation('segments');
  const table = useTableState('segment', { field: 'id', dir: 'desc' });
  const leads = useSegmentLeads(segmentId, table.query);
  const [exporting, setExporting] = useState(false);

  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm">
        <SearchInput value={table.search} onChange={table.setSearch} label={t('leads:searchLeads')} />
        <Group gap="xs">
          <ColumnPicker
            attributes={attributes}
            fixed={[
              { key: 'updated_at', label: t('leads:updatedDate') },
              { key: 'duplicates', label: t('leads:duplicates') },
            ]}
            hidden={table.hidden}
            onToggle={table.toggleHidden}
          />
          <Button
            variant="default"
            leftSection={<IconFileExport size={16} aria-hidden />}
            onClick={() => setExporting(true)}
          >
            {t('exportCsv')}
          </Button>
        </Group>
      </Group>
      <LeadsTable query={leads} attributes={attributes} table={table} hrefOf={hrefOf} />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        segmentId={segmentId}
        attributes={attributes}
        search={table.appliedSearch}
        order={`${table.sort.field},${table.sort.dir}`}
      />
    </>
  );
}
