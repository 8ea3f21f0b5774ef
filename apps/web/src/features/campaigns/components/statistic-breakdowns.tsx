import type { TCampaignStatistic } from '@herald/shared/campaigns/campaign-statistics.schemas';
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { LookupStepSummary } from './statistic-lookup-step.tsx';

type Slice = TCampaignStatistic['by_gateway'][number] | TCampaignStatistic['by_sender'][number];

/** Each step's main figures in a row, in step order (a lookup step's findings in one line); a step's name opens its own figures. */
export function StatisticStepsTable({
  steps,
  lookups = [],
  currency,
  onStep,
}: {
  steps: TCampaignStatistic['steps'];
  lookups?: TCampaignStatistic['lookup_steps'];
  currency: string | null;
  onStep: (stepId: number) => void;
}) {
  const { t } = useTranslation('campaigns');
  const n = formatNumber;
  const rows = [
    ...steps.map((s) => ({ kind: 'sms' as const, s })),
    ...lookups.map((s) => ({ kind: 'lookup' as const, s })),
  ].sort((a, b) => a.s.position - b.s.position);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('statistics.step')}</Table.Th>
            <Table.Th>{t('statistics.sent')}</Table.Th>
            <Table.Th>{t('statistics.delivered')}</Table.Th>
            <Table.Th>{t('statistics.clicked')}</Table.Th>
            <Table.Th>{t('statistics.errors')}</Table.Th>
            <Table.Th>{t('statistics.cost')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const name = (
              <Anchor component="button" onClick={() => onStep(row.s.step_id)}>
                {t('statistics.stepN', { n: row.s.position })}
              </Anchor>
            );
            if (row.kind === 'lookup')
              return (
                <Table.Tr key={row.s.step_id} data-testid={`statistic-step-row-${row.s.position}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Group gap={6} wrap="nowrap">
                      {name}
                      <Badge size="xs" variant="light" color="grape" style={{ flexShrink: 0 }}>
                        {t('lookupStep.type')}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td colSpan={4}>
                    <LookupStepSummary step={row.s} />
                  </Table.Td>
                  <Table.Td>{formatMoney(row.s.cost, currency ?? undefined)}</Table.Td>
                </Table.Tr>
              );
            const s = row.s;
            return (
              <Table.Tr key={s.step_id} data-testid={`statistic-step-row-${s.position}`}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>{`${n(s.amount_sent)} (${s.percentage_sent}%)`}</Table.Td>
                <Table.Td>{`${n(s.amount_delivered)} (${s.percentage_delivered}%)`}</Table.Td>
                <Table.Td>{`${n(s.amount_clicked)} (${s.percentage_clicked}%)`}</Table.Td>
                <Table.Td>{`${n(s.amount_error)} (${s.percentage_error}%)`}</Table.Td>
                <Table.Td>{formatMoney(s.actual_cost, currency ?? undefined)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Every figure by gateway or by sender. */
export function StatisticSliceTable({
  rows,
  label,
  currency,
}: {
  rows: Array<Slice & { label: string }>;
  label: string;
  currency: string | null;
}) {
  const { t } = useTranslation('campaigns');
  const n = formatNumber;
  if (rows.length === 0) return <Text c="dimmed">{t('statistics.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{label}</Table.Th>
            <Table.Th>{t('statistics.sent')}</Table.Th>
            <Table.Th>{t('statistics.delivered')}</Table.Th>
            <Table.Th>{t('statistics.clicked')}</Table.Th>
            <Table.Th>{t('statistics.errors')}</Table.Th>
            <Table.Th>{t('statistics.cost')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.label}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.label}</Table.Td>
              <Table.Td>{n(r.amount_sent)}</Table.Td>
              <Table.Td>{`${n(r.amount_delivered)} (${r.percentage_delivered}%)`}</Table.Td>
              <Table.Td>{`${n(r.amount_clicked)} (${r.percentage_clicked}%)`}</Table.Td>
              <Table.Td>{`${n(r.amount_error)} (${r.percentage_error}%)`}</Table.Td>
              <Table.Td>{formatMoney(r.actual_cost, currency ?? undefined)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Clicks per link target: people who clicked, their clicks, and the bots' and previews' hits apart. */
export function StatisticLinksTable({ links }: { links: TCampaignStatistic['links'] }) {
  const { t } = useTranslation('campaigns');
  if (links.length === 0) return <Text c="dimmed">{t('statistics.noLinks')}</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('statistics.target')}</Table.Th>
            <Table.Th>{t('statistics.clickers')}</Table.Th>
            <Table.Th>{t('statistics.humanClicks')}</Table.Th>
            <Table.Th>{t('statistics.otherHits')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {links.map((l) => (
            <Table.Tr key={l.redirect_to ?? ''}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{l.redirect_to ?? '—'}</Table.Td>
              <Table.Td>{formatNumber(l.clickers)}</Table.Td>
              <Table.Td>{formatNumber(l.human_clicks)}</Table.Td>
              <Table.Td>{formatNumber(l.other_hits)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
