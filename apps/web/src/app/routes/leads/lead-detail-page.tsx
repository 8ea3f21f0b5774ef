import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useAttributes } from '../../../features/attributes/api/get-attributes.ts';
import { usePermission } from '../../../features/auth/hooks/use-permission.ts';
import { useLead } from '../../../features/leads/api/get-lead.ts';
import { useLeadPlaces } from '../../../features/leads/api/get-lead-places.ts';
import { AddValueModal } from '../../../features/leads/components/add-value-modal.tsx';
import { DeleteLeadsConfirm } from '../../../features/leads/components/delete-leads-confirm.tsx';
import { LeadCampaigns } from '../../../features/leads/components/lead-campaigns.tsx';
import { LeadDuplicates } from '../../../features/leads/components/lead-duplicates.tsx';
import { LeadStatusBadge } from '../../../features/leads/components/lead-status-badge.tsx';
import { LeadTimeline } from '../../../features/leads/components/lead-timeline.tsx';
import { LeadValues } from '../../../features/leads/components/lead-values.tsx';
import { StatusMenu } from '../../../features/leads/components/status-menu.tsx';
import { useLeadSegments } from '../../../features/segments/api/get-lead-segments.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useIdParam } from '../../use-id-param.ts';
import { segmentHref } from '../audiences/segment-paths.ts';
import { NotFoundPage } from '../not-found-page.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { historyDaysOf } from '../../../features/billing/plan-text.ts';

/**
 * Lead detail under /leads/{id}, /sources/{sourceId}/{listId}/{id}, an audience's or segment's
 * /leads/{id} or a campaign's /audience/{id}; deleting returns to the
 * table the user came from (spec section 2).
 */
export function LeadDetailPage() {
  const { t } = useTranslation('leads');
  const navigate = useNavigate();
  const { sourceId, listId, segmentId, subId, campaignId } = useParams();
  const leadId = useIdParam('leadId');
  const lead = useLead(leadId);
  const { data: user } = useCurrentUser();
  const places = useLeadPlaces(leadId);
  const attributes = useAttributes();
  const canManage = usePermission('leads:manage');
  const canOpenSources = usePermission('sources:manage');
  // Operators have no audiences (spec section 6): no chips, and nothing asked of the server.
  const canSeeAudiences = usePermission('segments:read');
  const segments = useLeadSegments(leadId, canSeeAudiences);
  // Operators see no campaigns either.
  const canSeeCampaigns = usePermission('campaigns:read');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // A table's duplicates count links here with `?show=duplicates`: the list opens already shown.
  const [search] = useSearchParams();
  const [showDuplicates, setShowDuplicates] = useState(search.get('show') === 'duplicates');
  const back = backPath({ sourceId, listId, segmentId, subId, campaignId });

  if (!leadId) return <NotFoundPage />;
  if (lead.isPending || attributes.isPending) return <LoadingState rows={10} />;
  if (lead.isError) return <ErrorState error={lead.error} onRetry={() => lead.refetch()} />;
  if (attributes.isError) return <ErrorState error={attributes.error} onRetry={() => attributes.refetch()} />;
  const data = lead.data;

  const chip = (label: string, to: string) =>
    canOpenSources ? (
      <Badge key={to} component={Link} to={to} variant="outline" style={{ cursor: 'pointer' }} tt="none">
        {label}
      </Badge>
    ) : (
      <Badge key={to} variant="outline" tt="none">
        {label}
      </Badge>
    );

  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2}>{t('leadNumber', { id: data.id })}</Title>
          <LeadStatusBadge status={data.status} size="lg" />
        </Group>
        {canManage && (
          <Group gap="xs">
            <StatusMenu ids={[data.id]} current={data.status} />
            <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
              {t('addValue')}
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeleting(true)}
            >
              {t('deleteLead')}
            </Button>
          </Group>
        )}
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder radius="md" p="md">
            <Stack gap="sm">
              <Group gap="lg">
                <Meta label={t('updatedDate')} value={formatDateTime(data.updated_at)} />
                <Meta label={t('createdDate')} value={formatDateTime(data.created_at)} />
                {data.duplicates > 0 ? (
                  <Stack gap={0}>
                    <Text size="xs" c="dimmed">
                      {t('duplicates')}
                    </Text>
                    <Anchor
                      component="button"
                      size="sm"
                      onClick={() => setShowDuplicates((v) => !v)}
                      aria-expanded={showDuplicates}
                      aria-label={t('duplicatesOf.show')}
                      data-duplicates-link
                    >
                      {formatNumber(data.duplicates)}
                    </Anchor>
                  </Stack>
                ) : (
                  <Meta label={t('duplicates')} value={formatNumber(data.duplicates)} />
                )}
              </Group>
              {showDuplicates && data.duplicates > 0 && <LeadDuplicates leadId={data.id} linkPlaces={canOpenSources} />}
              {places.data && (
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    {t('sourcesAndLists')}
                  </Text>
                  {places.data.sources.map((s) => chip(s.name, `/sources/${s.id}`))}
                  {places.data.lists.map((l) => chip(l.name, `/sources/${l.source_id}/${l.id}`))}
                </Group>
              )}
              {segments.data && segments.data.data.length > 0 && (
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    {t('audiencesAndSegments')}
                  </Text>
                  {segments.data.data.map((s) => (
                    <Badge
                      key={s.id}
                      component={Link}
                      to={segmentHref(s)}
                      variant={s.parent_segment_id === null ? 'light' : 'outline'}
                      style={{ cursor: 'pointer' }}
                      tt="none"
                    >
                      {s.name}
                    </Badge>
                  ))}
                </Group>
              )}
              <LeadCampaigns leadId={data.id} enabled={canSeeCampaigns} />
              <LeadValues lead={data} attributes={attributes.data} editable={canManage} />
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="md" p="md">
            <LeadTimeline
              leadId={data.id}
              historyDays={historyDaysOf(user?.subscriptions)}
              linkCampaigns={canSeeCampaigns}
            />
          </Paper>
        </Grid.Col>
      </Grid>
      <AddValueModal opened={adding} onClose={() => setAdding(false)} lead={data} attributes={attributes.data} />
      <DeleteLeadsConfirm
        ids={deleting ? [data.id] : []}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(back, { replace: true })}
      />
    </Stack>
  );
}

/** The table the lead was opened from: a list's, an audience's or segment's, a campaign's audience, or all leads. */
function backPath(p: { sourceId?: string; listId?: string; segmentId?: string; subId?: string; campaignId?: string }) {
  if (p.campaignId) return `/campaigns/${p.campaignId}/audience`;
  if (p.sourceId && p.listId) return `/sources/${p.sourceId}/${p.listId}`;
  if (p.segmentId && p.subId) return `/audiences/${p.segmentId}/segments/${p.subId}/leads`;
  if (p.segmentId) return `/audiences/${p.segmentId}/leads`;
  return '/leads';
}

function Meta({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}
