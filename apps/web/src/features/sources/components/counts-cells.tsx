import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';
import { PercentBars } from './percent-bars.tsx';

/** Header cells of the count columns shared by the sources and the lists tables. */
export function CountsHeads({ order }: { order: 'sources' | 'lists' }) {
  const { t } = useTranslation('sources');
  const keys =
    order === 'sources'
      ? ['totalLeads', 'today', 'last30Days', 'duplicate', 'flagged', 'blacklisted']
      : ['totalLeads', 'today', 'last30Days', 'duplicate', 'blacklisted', 'flagged'];
  return (
    <>
      {keys.map((key) => (
        <Table.Th key={key} ta="right">
          {t(key)}
        </Table.Th>
      ))}
      <Table.Th>{t('verificationLookup')}</Table.Th>
    </>
  );
}

export function CountsCells({ counts, order }: { counts: TLeadCounts; order: 'sources' | 'lists' }) {
  const values =
    order === 'sources'
      ? [
          counts.total_leads,
          counts.total_today,
          counts.total_last_30_days,
          counts.duplicate,
          counts.total_flagged_leads,
          counts.total_blacklisted_leads,
        ]
      : [
          counts.total_leads,
          counts.total_today,
          counts.total_last_30_days,
          counts.duplicate,
          counts.total_blacklisted_leads,
          counts.total_flagged_leads,
        ];
  return (
    <>
      {values.map((value, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
        <Table.Td key={i} ta="right">
          {formatNumber(value)}
        </Table.Td>
      ))}
      <Table.Td>
        <PercentBars verified={counts.percentage_verified} lookup={counts.percentage_lookup} />
      </Table.Td>
    </>
  );
}
