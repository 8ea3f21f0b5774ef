import { UNCONFIRMED_AFTER_MS } from '@herald/shared/campaigns/campaign-results';
import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { useCampaign } from '../../../features/campaigns/api/get-campaign.ts';
import { useCampaignStatistic } from '../../../features/campaigns/api/get-campaign-statistic.ts';
import { CampaignStatusBadge } from '../../../features/campaigns/components/campaign-status-badge.tsx';
import { CreateSegmentAction } from '../../../features/campaigns/components/create-segment-dialog.tsx';
import {
  StatisticLinksTable,
  StatisticSliceTable,
  StatisticStepsTable,
} from '../../../features/campaigns/components/statistic-breakdowns.tsx';
import { StatisticBuckets, StatisticFigures } from '../../../features/campaigns/components/statistic-figures.tsx';
import { StatisticHourlyChart } from '../../../features/campaigns/components/statistic-hourly-chart.tsx';
import {
  type LeadsOpened,
  StatisticLeadsDrawer,
} from '../../../features/campaigns/components/statistic-leads-drawer.tsx';
import {
  StatisticLookupStep,
  useLookupStepEvents,
} from '../../../features/campaigns/components/statistic-lookup-step.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useIdParam } from '../../use-id-param.ts';
import { segmentHref } from '../audiences/segment-paths.ts';
import { CampaignTabs } from './campaign-page.tsx';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** `/campaigns/{id}/statistics` (decision 037): the campaign's and each step's figures, live while it sends. */
export function CampaignStatisticsPage() {
  const { t } = useTranslation('campaigns');
  const id = useIdParam('campaignId');
  const campaign = useCampaign(id);
  const c = campaign.data;
  const sending = c?.status === 'active' || c?.status === 'processing';
  const ended = c?.completed_at ? Date.now() - new Date(c.completed_at).getTime() < UNCONFIRMED_AFTER_MS : false;
  const stats = useCampaignStatistic(id, sending ? 'sending' : ended ? 'ended' : false);
  const [scope, setScope] = useState('campaign');
  const [opened, setOpened] = useState<LeadsOpened | null>(null);
  const navigate = useNavigate();

  const s = stats.data;
  const lookups = s?.lookup_steps ?? [];
  useLookupStepEvents(id, lookups);
  const step = s?.steps.find((x) => String(x.step_id) === scope);
  const lookup = lookups.find((x) => String(x.step_id) === scope);
  const figures = step ?? s?.campaign ?? null;
  // Every step in step order, SMS and lookup, for the scope's choice.
  const allSteps = [
    ...(s?.steps ?? []).map((x) => ({ id: x.step_id, position: x.position, lookup: false })),
    ...lookups.map((x) => ({ id: x.step_id, position: x.position, lookup: true })),
  ].sort((a, b) => a.position - b.position);
  const open = (filter: LeadsOpened['filter'], label: string) => setOpened({ filter, label, stepId: step?.step_id });

  return (
    <Stack>
      <Group gap="sm">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {campaign.data?.name ?? ''}
        </Title>
        {campaign.data && <CampaignStatusBadge status={campaign.data.status} />}
        {c && s?.available && (
          <CreateSegmentAction campaign={c} onCreated={(segment) => navigate(segmentHref(segment))} />
        )}
      </Group>
      <CampaignTabs id={id} active="statistics" />
      {stats.isPending ? (
        <LoadingState rows={6} />
      ) : stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => stats.refetch()} />
      ) : !s?.available || !figures ? (
        <Paper withBorder radius="md" p="md">
          <EmptyState text={t('statistics.unavailable')} hint={t('statistics.unavailableHint')} />
        </Paper>
      ) : (
        <>
          {allSteps.length > 1 && (
            <SegmentedControl
              value={scope}
              onChange={setScope}
              data={[
                { value: 'campaign', label: t('statistics.wholeCampaign') },
                ...allSteps.map((x) => ({
                  value: String(x.id),
                  label: t(x.lookup ? 'statistics.lookup.stepN' : 'statistics.stepN', { n: x.position }),
                })),
              ]}
              style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
            />
          )}
          {lookup ? (
            <StatisticLookupStep step={lookup} currency={s.currency} />
          ) : (
            <>
              <StatisticFigures
                f={figures}
                currency={s.currency}
                lookupCost={step ? 0 : (s.campaign?.lookup_cost ?? 0)}
                onOpen={open}
              />
              {!step && lookups.map((x) => <StatisticLookupStep key={x.step_id} step={x} currency={s.currency} />)}
              <Section title={t('statistics.buckets')}>
                <Text size="sm" c="dimmed" mb="sm">
                  {t('statistics.bucketsHint', { hours: s.unconfirmed_after_hours })}
                </Text>
                <StatisticBuckets f={figures} onOpen={open} />
              </Section>
            </>
          )}
          <Section title={t('statistics.hourly')}>
            <StatisticHourlyChart hourly={s.hourly} />
          </Section>
          {allSteps.length > 1 && (
            <Section title={t('statistics.steps')}>
              <StatisticStepsTable
                steps={s.steps}
                lookups={lookups}
                currency={s.currency}
                onStep={(x) => setScope(String(x))}
              />
            </Section>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section title={t('statistics.links')}>
              <StatisticLinksTable links={s.links} />
            </Section>
            <Section title={t('statistics.optOuts')}>
              <Stack gap={4}>
                <Text>{t('statistics.optOutStop', { count: s.opt_outs.stop, n: formatNumber(s.opt_outs.stop) })}</Text>
                <Text>
                  {t('statistics.optOutLink', {
                    count: s.opt_outs.unsubscribe_link,
                    n: formatNumber(s.opt_outs.unsubscribe_link),
                  })}
                </Text>
              </Stack>
            </Section>
          </SimpleGrid>
          <Section title={t('statistics.byGateway')}>
            <StatisticSliceTable
              label={t('statistics.gateway')}
              currency={s.currency}
              rows={s.by_gateway.map((g) => ({ ...g, label: g.name ?? t('statistics.gatewayGone') }))}
            />
          </Section>
          <Section title={t('statistics.bySender')}>
            <StatisticSliceTable
              label={t('statistics.sender')}
              currency={s.currency}
              rows={s.by_sender.map((g) => ({ ...g, label: g.sender ?? t('statistics.gatewaySender') }))}
            />
          </Section>
        </>
      )}
      <StatisticLeadsDrawer campaignId={id} opened={opened} onClose={() => setOpened(null)} />
    </Stack>
  );
}
