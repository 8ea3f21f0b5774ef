import { Stack } from '@mantine/core';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useSegment } from '../../../features/segments/api/get-segment.ts';
import { ExportsList } from '../../../features/segments/components/exports-list.tsx';
import { FilterEditor } from '../../../features/segments/components/filter-editor.tsx';
import { useAllSourcesWithLists } from '../../../features/sources/api/get-all-sources-with-lists.ts';
import { Paper } from '@mantine/core';
import { useIdParam } from '../../use-id-param.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { SegmentLeadsPanel } from './segment-leads-panel.tsx';
import { SegmentPageHeader } from './segment-page-header.tsx';

/** `/audiences/{id}/leads` and `/audiences/{id}/segments/{subId}/leads`: counts, filters, leads, exports. */
export function SegmentLeadsPage() {
  const audienceId = useIdParam('segmentId');
  const subId = useIdParam('subId');
  const id = subId || audienceId;
  const segment = useSegment(id);
  const attributes = useAttributes();
  // Only an audience filters by source and list; its segments narrow it by other conditions.
  const sources = useAllSourcesWithLists(!!segment.data && !segment.data.parent_segment_id);
  const canManage = usePermission('segments:manage');
  const base = subId ? `/audiences/${audienceId}/segments/${subId}` : `/audiences/${audienceId}`;

  if (!id) return <NotFoundPage />;
  if (segment.isPending || attributes.isPending) return <LoadingState rows={10} />;
  if (segment.isError) return <ErrorState error={segment.error} onRetry={() => segment.refetch()} />;
  if (attributes.isError) return <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />;

  return (
    <Stack>
      <SegmentPageHeader segment={segment.data} base={base} tab="leads" />
      <FilterEditor
        key={segment.data.id}
        segment={segment.data}
        attributes={attributes.data}
        canManage={canManage}
        sources={sources}
      />
      <ExportsList segmentId={segment.data.id} />
      <Paper withBorder radius="md" p="md">
        <SegmentLeadsPanel
          key={segment.data.id}
          segmentId={segment.data.id}
          attributes={attributes.data}
          hrefOf={(lead) => `${base}/leads/${lead.id}`}
        />
      </Paper>
    </Stack>
  );
}
