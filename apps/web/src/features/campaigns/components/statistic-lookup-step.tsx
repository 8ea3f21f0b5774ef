import type { TStatisticLookupStep } from '@herald/shared/campaigns/campaign-statistics.schemas';
import { Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';

const LOOKUP_COLORS: Record<number, string> = { 0: 'gray', 1: 'blue', 2: 'yellow', 3: 'green' };
/** A running lookup's progress events come once a second; its figures are read again at most this often. */
const PROGRESS_REFETCH_MS = 3_000;

/**
 * Reads the statistics again when one of the campaign's step lookups moves (each `LookupStatus`
 * event): at once when its status changes, and at most every 3 s while it only progresses, so a
 * lookup step's figures are live without the screen asking faster than the spec's polling.
 */
export function useLookupStepEvents(campaignId: number, lookups: TStatisticLookupStep[]) {
  const queryClient = useQueryClient();
  const last = useRef(new Map<number, { status: number; at: number }>());
  useServerEvent('LookupStatus', (lookup) => {
    if (!lookups.some((l) => l.step_id === lookup.campaign_step_id)) return;
    const seen = last.current.get(lookup.id);
    const now = Date.now();
    if (seen && seen.status === lookup.status && now - seen.at < PROGRESS_REFETCH_MS) return;
    last.current.set(lookup.id, { status: lookup.status, at: now });
    void queryClient.invalidateQueries({ queryKey: ['campaigns', 'statistic', campaignId] });
  });
}

function Figure({ label, value, percent, hint }: { label: string; value: string; percent?: number; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap={2}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
        <Group gap={6} align="baseline" wrap="nowrap">
          <Text size="xl" fw={700}>
            {value}
          </Text>
          {percent !== undefined && (
            <Text size="sm" c="dimmed">
              {percent}%
            </Text>
          )}
        </Group>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * A lookup step on the statistics (decision 041): what its lookup did to the phones that reached it
 * — looked up or reused free, and found valid mobile, invalid, not mobile (by line type) or unknown
 * — what it cost, and how far it is, with the way to the lookups' screen.
 */
export function StatisticLookupStep({ step, currency }: { step: TStatisticLookupStep; currency: string | null }) {
  const { t } = useTranslation('campaigns');
  const { t: tl } = useTranslation('lookups');
  const n = formatNumber;
  const money = (v: number) => formatMoney(v, currency ?? undefined);
  const types = (['landline', 'voip', 'toll_free', 'other'] as const)
    .filter((k) => step.not_mobile_by_type[k] > 0)
    .map((k) => `${t(`statistics.lookup.type.${k}`)} ${n(step.not_mobile_by_type[k])}`)
    .join(' · ');
  return (
    <Paper withBorder radius="md" p="md" data-testid={`statistic-lookup-step-${step.position}`}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Group gap="xs">
          <Title order={4}>{t('statistics.stepN', { n: step.position })}</Title>
          <Badge variant="light" color="grape" leftSection={<IconSearch size={12} aria-hidden />}>
            {t('lookupStep.type')}
          </Badge>
          {step.lookup_status !== null && (
            <Badge color={LOOKUP_COLORS[step.lookup_status] ?? 'gray'} variant="light">
              {tl(`status.${step.lookup_status}`)}
            </Badge>
          )}
        </Group>
        <Anchor component={Link} to="/lookup-management" size="sm">
          {t('lookupStep.open')}
        </Anchor>
      </Group>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {step.gateway_name ? t('lookupStep.through', { gateway: step.gateway_name }) : t('lookupStep.what')}
          {'. '}
          {t('statistics.lookup.skipsHint')}
        </Text>
        {step.lookup_id === null ? (
          <Text size="sm">{t('statistics.lookup.waiting')}</Text>
        ) : (
          <>
            <Stack gap={4}>
              <Group gap="xs">
                <Text size="sm">{t('lookupStep.done', { done: n(step.done), phones: n(step.phones) })}</Text>
                <Text size="sm" c="dimmed">
                  {step.percentage_done}%
                </Text>
                {step.paused_reason && (
                  <Text size="xs" c="red">
                    {translateMessage({ code: step.paused_reason as never })}
                  </Text>
                )}
              </Group>
              <Progress value={step.percentage_done} size="sm" aria-label={t('statistics.lookup.progress')} />
            </Stack>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
              <Figure label={t('statistics.lookup.phones')} value={n(step.phones)} />
              <Figure
                label={t('statistics.lookup.done')}
                value={n(step.done)}
                percent={step.percentage_done}
                hint={t('statistics.lookup.doneHint', { lookedUp: n(step.looked_up), reused: n(step.reused) })}
              />
              <Figure
                label={t('statistics.lookup.validMobile')}
                value={n(step.valid_mobile)}
                percent={step.percentage_valid_mobile}
              />
              <Figure
                label={t('statistics.lookup.invalid')}
                value={n(step.invalid)}
                percent={step.percentage_invalid}
              />
              <Figure
                label={t('statistics.lookup.notMobile')}
                value={n(step.not_mobile)}
                percent={step.percentage_not_mobile}
                hint={types || undefined}
              />
              <Figure
                label={t('statistics.lookup.unknown')}
                value={n(step.unknown)}
                percent={step.percentage_unknown}
                hint={t('statistics.lookup.unknownHint')}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Figure
                label={t('statistics.lookup.cost')}
                value={money(step.cost)}
                hint={t('statistics.lookup.saved', { money: money(step.saved) })}
              />
              {(step.failed > 0 || step.refunds > 0) && (
                <Figure
                  label={t('statistics.lookup.failed')}
                  value={n(step.failed)}
                  hint={t('statistics.lookup.refunds', { count: step.refunds })}
                />
              )}
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A lookup step's findings in one line, for its row in the steps table. */
export function LookupStepSummary({ step }: { step: TStatisticLookupStep }) {
  const { t } = useTranslation('campaigns');
  const n = formatNumber;
  if (step.lookup_id === null) return <>{t('statistics.lookup.waiting')}</>;
  return (
    <>
      {[
        t('lookupStep.done', { done: n(step.done), phones: n(step.phones) }),
        `${t('statistics.lookup.validMobile')} ${n(step.valid_mobile)}`,
        t('lookupStep.invalid', { count: step.invalid }),
        t('lookupStep.notMobile', { count: step.not_mobile }),
      ].join(' · ')}
    </>
  );
}
