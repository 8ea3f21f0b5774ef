import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useLeadDuplicates } from '../api/get-lead-duplicates.ts';
import { LeadStatusBadge } from './lead-status-badge.tsx';

/**
 * What a lead's Duplicates count counts: every other lead of the team holding one of its phones,
 * the phones they share, and the source and list each lives in, each a link.
 */
export function LeadDuplicates({ leadId, linkPlaces }: { leadId: number; linkPlaces: boolean }) {
  const { t } = useTranslation('leads');
  const query = useLeadDuplicates(leadId, true);
  if (query.isPending) return <LoadingState rows={2} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { data, more } = query.data;
  return (
    <Paper withBorder radius="sm" p="sm" aria-label={t('duplicatesOf.title')} role="region">
      <Stack gap="xs">
        <Text size="sm" fw={600}>
          {t('duplicatesOf.title')}
        </Text>
        {data.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('duplicatesOf.none')}
          </Text>
        )}
        {data.map((d) => (
          <Group key={d.id} gap="xs" wrap="wrap" data-duplicate-lead={d.id}>
            <Anchor component={Link} to={`/leads/${d.id}`} size="sm" fw={600}>
              {t('leadNumber', { id: d.id })}
            </Anchor>
            <LeadStatusBadge status={d.status} />
            <Text size="sm" ff="monospace">
              {d.phones.join(', ')}
            </Text>
            {linkPlaces ? (
              <Badge
                component={Link}
                to={`/sources/${d.source.id}/${d.list.id}`}
                variant="outline"
                tt="none"
                style={{ cursor: 'pointer' }}
              >
                {t('duplicatesOf.place', { source: d.source.name, list: d.list.name })}
              </Badge>
            ) : (
              <Badge variant="outline" tt="none">
                {t('duplicatesOf.place', { source: d.source.name, list: d.list.name })}
              </Badge>
            )}
          </Group>
        ))}
        {more && (
          <Text size="xs" c="dimmed">
            {t('duplicatesOf.more', { count: data.length })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
