import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { Badge, Group, Stack, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useSegmentAggregations } from '../../../features/segments/api/get-segment-aggregations.ts';
import { SegmentActions } from '../../../features/segments/components/segment-actions.tsx';
import { SegmentStats } from '../../../features/segments/components/segment-stats.tsx';
import { segmentHref } from './segment-paths.ts';

interface Props {
  segment: TSegment;
  /** This page's base: /audiences/{id} or /audiences/{id}/segments/{subId}. */
  base: string;
  tab: 'leads' | 'segments';
}

/** Name, 'Update dynamically' state, actions, and the clickable Total leads and Segments counts. */
export function SegmentPageHeader({ segment, base, tab }: Props) {
  const { t } = useTranslation('segments');
  const counts = useSegmentAggregations(segment.id);
  const canManage = usePermission('segments:manage');
  const isAudience = segment.parent_segment_id === null;
  const backTo = isAudience ? '/' : `/audiences/${segment.parent_segment_id}/segments`;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" miw={0}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {segment.name}
          </Title>
          <Tooltip label={t(segment.ignore_new_leads ? 'frozenHint' : 'dynamicHint')} multiline w={280}>
            <Badge variant="light" color={segment.ignore_new_leads ? 'gray' : 'teal'} style={{ flexShrink: 0 }}>
              {t(segment.ignore_new_leads ? 'frozen' : 'dynamic')}
            </Badge>
          </Tooltip>
        </Group>
        {canManage && (
          <SegmentActions segment={segment} backTo={backTo} hrefOf={segmentHref} canCreateChild={isAudience} />
        )}
      </Group>
      <SegmentStats
        loading={counts.isPending}
        items={[
          { label: t('totalLeads'), value: counts.data?.leads_count, to: `${base}/leads`, active: tab === 'leads' },
          isAudience
            ? {
                label: t('segments'),
                value: counts.data?.segments_count,
                to: `${base}/segments`,
                active: tab === 'segments',
              }
            : { label: t('leads:duplicates'), value: counts.data?.duplicates_count },
        ]}
      />
    </Stack>
  );
}
