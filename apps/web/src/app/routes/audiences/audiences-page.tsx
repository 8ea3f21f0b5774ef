import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCreateSegment } from '../../../features/segments/api/create-segment.ts';
import { useSegments } from '../../../features/segments/api/get-segments.ts';
import { SegmentModal } from '../../../features/segments/components/segment-modal.tsx';
import { SegmentsTable } from '../../../features/segments/components/segments-table.tsx';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useTableState } from '../../../lib/use-table-state.ts';
import { FirstSteps } from './first-steps.tsx';

const AUDIENCES_PAGE_SIZE = 100;

/** `/`: the team's audiences, newest first unless the user sorted otherwise (kept locally). */
export function AudiencesPage() {
  const { t } = useTranslation('segments');
  const navigate = useNavigate();
  const table = useTableState('audiences', { field: 'created_at', dir: 'desc' }, AUDIENCES_PAGE_SIZE);
  const audiences = useSegments(table.query);
  const create = useCreateSegment();
  const canManage = usePermission('segments:manage');
  const [creating, setCreating] = useState(false);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('audiences')}</Title>
        {canManage && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('createAudience')}
          </Button>
        )}
      </Group>
      {canManage && audiences.data && audiences.data.meta.total === 0 && !table.search && (
        <FirstSteps onCreateAudience={() => setCreating(true)} />
      )}
      <Paper withBorder radius="md" p="md">
        <SegmentsTable
          query={audiences}
          table={table}
          label={t('audiences')}
          nameHeader={t('audienceName')}
          emptyText={t('noAudiences')}
          hrefOf={(s) => `/audiences/${s.id}/leads`}
          segmentsHrefOf={(s) => `/audiences/${s.id}/segments`}
        />
      </Paper>
      <SegmentModal
        opened={creating}
        mode="create"
        onClose={() => setCreating(false)}
        onSubmit={async (values) => {
          const audience = await create.mutateAsync(values);
          notifySuccess(t('audienceCreated', { name: audience.name }));
          setCreating(false);
          navigate(`/audiences/${audience.id}/leads`);
        }}
      />
    </Stack>
  );
}
