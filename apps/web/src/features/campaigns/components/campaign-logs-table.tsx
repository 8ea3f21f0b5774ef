import { CAMPAIGN_LOG_TYPES, type TCampaignLog } from '@herald/shared/campaigns/campaigns.schemas';
import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { translateMessage } from '../../../lib/i18n.ts';

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/** What an entry changed: settings from → to, the step or audience it is about, and why. */
function details(log: TCampaignLog, t: (key: string, o?: Record<string, unknown>) => string): string {
  const d = log.data;
  const parts: string[] = [];
  if (d.position !== undefined) parts.push(t('step', { position: d.position }));
  if (d.kind && d.name) parts.push(`${t(`audienceKind.${d.kind}`)}: ${d.name}`);
  if (d.from || d.to) parts.push(`${d.from ? t(`status.${d.from}`) : '—'} → ${d.to ? t(`status.${d.to}`) : '—'}`);
  for (const a of d.attributes ?? []) parts.push(`${a.name}: ${show(a.value_from)} → ${show(a.value_to)}`);
  if (d.reason) parts.push(translateMessage(d.reason) ?? '');
  return parts.join('; ');
}

export function CampaignLogsTable({ logs }: { logs: TCampaignLog[] }) {
  const { t } = useTranslation('campaigns');
  const known = new Set<string>(CAMPAIGN_LOG_TYPES);
  return (
    <ScrollTable minWidth={640} verticalSpacing="sm" aria-label={t('tabs.logs')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('logWhen')}</Table.Th>
          <Table.Th>{t('logEvent')}</Table.Th>
          <Table.Th>{t('logWho')}</Table.Th>
          <Table.Th>{t('logDetails')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {logs.map((log) => (
          <Table.Tr key={log.id}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(log.created_at)}</Table.Td>
            <Table.Td>{known.has(log.type) ? t(`log.${log.type}`) : t('log.unknown', { type: log.type })}</Table.Td>
            <Table.Td>{log.user?.name ?? t('logSystem')}</Table.Td>
            <Table.Td>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {details(log, (key, o) => String(t(key as never, o as never)))}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
