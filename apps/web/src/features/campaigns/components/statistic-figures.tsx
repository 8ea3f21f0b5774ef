import type { TStatisticFigures, TStatisticFilterType } from '@herald/shared/campaigns/campaign-statistics.schemas';
import { RECIPIENT_BUCKETS } from '@herald/shared/campaigns/campaign-results';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

export type OpenLeads = (filter: TStatisticFilterType, label: string) => void;

/** One figure: its amount, its floored percentage, and, when it has leads behind it, a button that opens them. */
function Figure(props: {
  label: string;
  value: string;
  percent?: number;
  hint?: string;
  filter?: TStatisticFilterType;
  onOpen: OpenLeads;
}) {
  const body = (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {props.label}
      </Text>
      <Group gap={6} align="baseline" wrap="nowrap">
        <Text size="xl" fw={700}>
          {props.value}
        </Text>
        {props.percent !== undefined && (
          <Text size="sm" c="dimmed">
            {props.percent}%
          </Text>
        )}
      </Group>
      {props.hint && (
        <Text size="xs" c="dimmed">
          {props.hint}
        </Text>
      )}
    </Stack>
  );
  return (
    <Paper withBorder radius="md" p="sm">
      {props.filter ? (
        <UnstyledButton
          display="block"
          w="100%"
          onClick={() => props.filter && props.onOpen(props.filter, props.label)}
          aria-label={props.label}
          data-figure={props.filter}
        >
          {body}
        </UnstyledButton>
      ) : (
        body
      )}
    </Paper>
  );
}

/** The spec's amounts and percentages of a campaign or a step, each opening the leads behind it. */
export function StatisticFigures({
  f,
  currency,
  lookupCost = 0,
  onOpen,
}: {
  f: TStatisticFigures;
  currency: string | null;
  /** The campaign's lookup steps' money, counted in its actual cost. */
  lookupCost?: number;
  onOpen: OpenLeads;
}) {
  const { t } = useTranslation('campaigns');
  const n = formatNumber;
  const money = (v: number) => formatMoney(v, currency ?? undefined);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        <Figure label={t('statistics.records')} value={n(f.records)} onOpen={onOpen} />
        <Figure
          label={t('statistics.sent')}
          value={n(f.amount_sent)}
          percent={f.percentage_sent}
          filter="all_sent"
          onOpen={onOpen}
        />
        <Figure
          label={t('statistics.delivered')}
          value={n(f.amount_delivered)}
          percent={f.percentage_delivered}
          filter="delivered"
          onOpen={onOpen}
        />
        <Figure
          label={t('statistics.clicked')}
          value={n(f.amount_clicked)}
          percent={f.percentage_clicked}
          hint={t('statistics.clickedHint', {
            count: f.human_clicks,
            clicks: n(f.human_clicks),
            other: n(f.other_hits),
          })}
          filter="clicked"
          onOpen={onOpen}
        />
        <Figure
          label={t('statistics.errors')}
          value={n(f.amount_error)}
          percent={f.percentage_error}
          filter="all_failed"
          onOpen={onOpen}
        />
        <Figure
          label={t('statistics.engaged')}
          value={n(f.amount_eng)}
          percent={f.percentage_eng}
          hint={t('statistics.notEngaged', { count: f.amount_not_eng, percent: f.percentage_not_eng })}
          filter="clicked_or_unsubscribed"
          onOpen={onOpen}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('statistics.clickRate')}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
        {(
          [
            ['delivered', f.amount_status_delivered, 'delivered'],
            ['blocked', f.amount_status_blocked, 'blocked_by_carrier'],
            ['inactive', f.amount_status_inactive, 'inactive_device'],
            ['error', f.amount_status_error, 'failed'],
            ['sent', f.amount_status_sent, 'sent'],
            ['sending', f.amount_status_sending, 'sending'],
            ['queued', f.amount_status_queued, 'queued'],
          ] as const
        ).map(([key, value, filter]) => (
          <Figure key={key} label={t(`statistics.status.${key}`)} value={n(value)} filter={filter} onOpen={onOpen} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure label={t('statistics.parts')} value={n(f.sms_parts)} onOpen={onOpen} />
        <Figure
          label={t('statistics.cost')}
          value={money(f.actual_cost)}
          hint={[
            t('statistics.freeSms', { count: f.free_sms }),
            lookupCost > 0 ? t('statistics.lookup.ofCost', { money: money(lookupCost) }) : '',
          ]
            .filter(Boolean)
            .join(' · ')}
          onOpen={onOpen}
        />
        <Figure
          label={t('statistics.costPerClick')}
          value={f.cost_per_click === null ? '—' : money(f.cost_per_click)}
          onOpen={onOpen}
        />
        <Figure label={t('statistics.undeliveredCost')} value={money(f.undelivered_cost)} onOpen={onOpen} />
      </SimpleGrid>
    </Stack>
  );
}

/** Every recipient in one bucket: delivered, sent, unconfirmed, failed (why), skipped (why), unknown, queued. */
export function StatisticBuckets({ f, onOpen }: { f: TStatisticFigures; onOpen: OpenLeads }) {
  const { t } = useTranslation('campaigns');
  const open: Partial<Record<(typeof RECIPIENT_BUCKETS)[number], TStatisticFilterType>> = {
    delivered: 'delivered',
    sent: 'sent',
    unconfirmed: 'unconfirmed',
    failed: 'all_failed',
    skipped: 'skipped',
    unknown: 'unknown',
  };
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm">
        {RECIPIENT_BUCKETS.map((b) => (
          <Figure
            key={b}
            label={t(`statistics.bucket.${b}`)}
            value={formatNumber(f.buckets[b] ?? 0)}
            filter={open[b]}
            onOpen={onOpen}
          />
        ))}
      </SimpleGrid>
      <Group gap="xs">
        {Object.entries(f.failed).map(([reason, count]) => (
          <Badge key={`f-${reason}`} color="red" variant="light">
            {t('statistics.failedBecause', {
              reason: t(`statistics.reason.${reason}`, { defaultValue: reason }),
              count,
            })}
          </Badge>
        ))}
        {Object.entries(f.skipped).map(([reason, count]) => (
          <Badge key={`s-${reason}`} color="gray" variant="light">
            {t('statistics.skippedBecause', {
              reason: t(`statistics.reason.${reason}`, { defaultValue: reason }),
              count,
            })}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}
