import { manualMovesOf } from '@herald/shared/campaigns/campaign-moves';
import { Alert, Button, Group, Paper, Stack, Tabs, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useCampaign } from '../../../features/campaigns/api/get-campaign.ts';
import { useCampaignConfig } from '../../../features/campaigns/api/get-campaign-config.ts';
import { useSetCampaignStatus } from '../../../features/campaigns/api/set-campaign-status.ts';
import { useUpdateCampaign } from '../../../features/campaigns/api/update-campaign.ts';
import { type AudienceOptions, CampaignAudience } from '../../../features/campaigns/components/campaign-audience.tsx';
import { CampaignPreviewCard } from '../../../features/campaigns/components/campaign-preview-card.tsx';
import { CampaignSettings } from '../../../features/campaigns/components/campaign-settings.tsx';
import { CampaignStatusBadge } from '../../../features/campaigns/components/campaign-status-badge.tsx';
import { CampaignSteps } from '../../../features/campaigns/components/campaign-steps.tsx';
import { CampaignTestDialog } from '../../../features/campaigns/components/campaign-test-dialog.tsx';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { PlanRequiredModal } from '../../../features/billing/components/plan-required-modal.tsx';
import { useSenderNames, useSendingGateways } from '../../../features/messages/api/get-sending.ts';
import { useShortUrlDomains } from '../../../features/short-links/api/get-short-url-domains.ts';
import { segmentsQueryOptions } from '../../../features/segments/api/get-segments.ts';
import { allSourcesWithListsQueryOptions } from '../../../features/sources/api/get-all-sources-with-lists.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useIdParam } from '../../use-id-param.ts';
import { StepComposer } from './step-composer.tsx';

/** The tabs over a campaign: the campaign itself, its audience (decision 038), its statistics (037) and its log. */
export function CampaignTabs({ id, active }: { id: number; active: 'campaign' | 'audience' | 'statistics' | 'logs' }) {
  const { t } = useTranslation('campaigns');
  return (
    <Tabs value={active}>
      <Tabs.List>
        <Tabs.Tab value="campaign" renderRoot={(props) => <Link {...props} to={`/campaigns/${id}`} />}>
          {t('tabs.campaign')}
        </Tabs.Tab>
        <Tabs.Tab value="audience" renderRoot={(props) => <Link {...props} to={`/campaigns/${id}/audience`} />}>
          {t('tabs.audience')}
        </Tabs.Tab>
        <Tabs.Tab value="statistics" renderRoot={(props) => <Link {...props} to={`/campaigns/${id}/statistics`} />}>
          {t('tabs.statistics')}
        </Tabs.Tab>
        <Tabs.Tab value="logs" renderRoot={(props) => <Link {...props} to={`/campaigns/${id}/logs`} />}>
          {t('tabs.logs')}
        </Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}

/** `/campaigns/{id}`: settings, audience, steps, the preview, and Schedule / Pause / Resume. */
export function CampaignPage() {
  const { t } = useTranslation('campaigns');
  const id = useIdParam('campaignId');
  const campaign = useCampaign(id);
  const config = useCampaignConfig();
  const update = useUpdateCampaign();
  const { data: user } = useCurrentUser();
  const [planPrompt, setPlanPrompt] = useState(false);
  // An owner whose team has no plan is shown the way to one, not a bare refusal (others cannot buy).
  const status = useSetCampaignStatus({
    onPlanMissing: () => {
      if (user?.role !== 'team_owner') return false;
      setPlanPrompt(true);
      return true;
    },
  });
  const gateways = useSendingGateways(true);
  const alphaNames = useSenderNames(true);
  const domains = useShortUrlDomains();
  const segments = useQuery(segmentsQueryOptions({ page: 1, limit: 100 }));
  const sources = useQuery(allSourcesWithListsQueryOptions());

  if (campaign.isPending) return <LoadingState rows={8} />;
  if (campaign.isError) return <ErrorState error={campaign.error} onRetry={() => campaign.refetch()} />;
  const c = campaign.data;
  const facts = { status: c.status, started: c.started_at !== null };
  const moves = manualMovesOf(facts, config.data?.manualStatuses);
  const options: AudienceOptions = {
    segment: (segments.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
    source: (sources.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
    list: (sources.data?.data ?? []).flatMap((s) =>
      s.lists.map((l) => ({ value: String(l.id), label: `${s.name} / ${l.name}` })),
    ),
  };
  const reason = c.paused_reason ?? c.failed_reason;
  // Links go out only on a domain that is proven and switched on (decision 028).
  const usableDomains = (domains.data?.data ?? [])
    .filter((d) => d.access === 'Enabled' && d.verification.status === 'verified')
    .map((d) => ({ value: String(d.id), label: d.url }));

  return (
    <Stack>
      <Group justify="space-between" gap="xs">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {c.name}
          </Title>
          <CampaignStatusBadge status={c.status} />
        </Group>
        <Group gap="xs">
          <CampaignTestDialog campaign={c} />
          {moves.map((to) => (
            <Button
              key={to}
              variant={to === 'scheduled' ? 'filled' : 'default'}
              loading={status.isPending && status.variables?.status === to}
              onClick={async () => {
                await status.mutateAsync({ ids: [c.id], status: to });
                notifySuccess(t('statusChanged', { count: 1, status: t(`status.${to}`) }));
              }}
            >
              {to === 'scheduled' ? (c.status === 'paused' ? t('resume') : t('schedule')) : t(`move.${to}`)}
            </Button>
          ))}
        </Group>
      </Group>
      <CampaignTabs id={c.id} active="campaign" />
      {reason && (
        <Alert color={c.status === 'failed' ? 'red' : 'yellow'}>
          {t(c.status === 'failed' ? 'failedBecause' : 'pausedBecause', { reason: translateMessage(reason) })}
        </Alert>
      )}
      <Paper withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          {t('settings')}
        </Title>
        <CampaignSettings
          campaign={c}
          gateways={(gateways.data ?? []).map((g) => ({ value: String(g.id), label: g.name, from: g.from }))}
          alphaNames={alphaNames.data ?? []}
          timezones={config.data?.timezones ?? [c.timezone]}
          saving={update.isPending}
          onSave={async (patch) => {
            await update.mutateAsync({ id: c.id, ...patch });
            notifySuccess(t('saved'));
          }}
        />
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          {t('audience')}
        </Title>
        <CampaignAudience campaign={c} options={options} />
      </Paper>
      <Title order={3}>{t('steps')}</Title>
      <CampaignSteps campaign={c} composer={(slot) => <StepComposer slot={slot} />} domains={usableDomains} />
      <CampaignPreviewCard campaign={c} />
      <PlanRequiredModal opened={planPrompt} onClose={() => setPlanPrompt(false)} />
    </Stack>
  );
}
