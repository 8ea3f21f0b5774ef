import { Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useChildSegments } from '../../../features/segments/api/get-child-segments.ts';
import { useSegment } from '../../../features/segments/api/get-segment.ts';
import { SegmentsTable } from '../../../features/segments/components/segments-table.tsx';
import { useTableState } from '../../../lib/use-table-state.ts';
import { useIdParam } from '../../use-id-param.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { SegmentPageHeader } from './segment-page-header.tsx';

const SUB_SEGMENTS_PAGE_SIZE = 15;

/** `/audiences/{id}/segments`: the audience's child segments (15 per page, spec section 9). */
export function SegmentChildrenPage() {
  const { t } = useTranslation('segments');
  const id = useIdParam('segmentId');
  const segment = useSegment(id);
  const table = useTableState('segment-children', { field: 'created_at', dir: 'desc' }, SUB_SEGMENTS_PAGE_SIZE);
  const children = useChildSegments(id, table.query);

  if (!id) return <NotFoundPage />;
  if (segment.isPending) return <LoadingState rows={10} />;
  if (segment.isError) return <ErrorState error={segment.error} onRetry={() => segment.refetch()} />;

  return (
    <Stack>
      <SegmentPageHeader segment={segment.data} base={`/audiences/${id}`} tab="segments" />
      <Paper withBorder radius="md" p="md">
        <SegmentsTable
          query={children}
          table={table}
          label={t('segments')}
          nameHeader={t('segmentName')}
          emptyText={t('noSegments')}
          hrefOf={(s) => `/audiences/${id}/segments/${s.id}/leads`}
        />
      </Paper>
    </Stack>
  );
}
