import type { TCampaignRecipientPage, TRecipientStep } from '@herald/shared/campaigns/campaign-audience.schemas';
import type { TRecipientBucket } from '@herald/shared/campaigns/campaign-results';
import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { SortHeader } from '../../../components/sort-header.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import type { TableState } from '../../../lib/use-table-state.ts';

/** Columns a user may hide (kept per table, 'campaign audience'); the lead and each step's status stay. */
export const RECIPIENT_COLUMNS = ['phone', 'sent_at', 'clicked', 'cost'] as const;

const BUCKET_COLORS: Record<TRecipientBucket, string> = {
  delivered: 'teal',
  sent: 'blue',
  unconfirmed: 'yellow',
  failed: 'red',
  skipped: 'gray',
  unknown: 'orange',
  queued: 'gray',
};

interface Props {
  campaignId: number;
  query: UseQueryResult<TCampaignRecipientPage>;
  table: TableState;
  currency?: string;
  empty: ReactNode;
}

/** The campaign's recipients, a column per step; a row opens the lead under the campaign. */
export function CampaignRecipientsTable({ campaignId, query, table, currency, empty }: Props) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const shown = (c: (typeof RECIPIENT_COLUMNS)[number]) => !table.hidden.includes(c);

  if (query.isPending) return <LoadingState rows={8} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;
  const { data: rows, steps, meta } = query.data;
  if (rows.length === 0) return <>{empty}</>;
  const hrefOf = (leadId: number) => `/campaigns/${campaignId}/audience/${leadId}`;
  const stepWidth = shown('sent_at') ? 170 : 130;

  return (
    <>
      <ScrollTable
        minWidth={200 + (shown('phone') ? 140 : 0) + steps.length * stepWidth + 180}
        verticalSpacing="xs"
        aria-label={t('tabs.audience')}
      >
        <Table.Thead>
          <Table.Tr>
            <SortHeader field="lead_id" sort={table.sort} onSort={table.toggleSort}>
              {t('audienceTable.lead')}
            </SortHeader>
            {shown('phone') && (
              <SortHeader field="phone" sort={table.sort} onSort={table.toggleSort}>
                {t('audienceTable.phone')}
              </SortHeader>
            )}
            {steps.map((s) => (
              <Table.Th key={s.id}>{t('audienceTable.step', { position: s.position })}</Table.Th>
            ))}
            {shown('clicked') && (
              <SortHeader field="clicked" sort={table.sort} onSort={table.toggleSort}>
                {t('audienceTable.clicked')}
              </SortHeader>
            )}
            {shown('cost') && (
              <SortHeader field="cost" sort={table.sort} onSort={table.toggleSort} ta="right">
                {t('audienceTable.cost')}
              </SortHeader>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.lead_id} style={{ cursor: 'pointer' }} onClick={() => navigate(hrefOf(row.lead_id))}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={hrefOf(row.lead_id)}
                  size="sm"
                  fw={500}
                  aria-label={t('audienceTable.leadLink', { id: row.lead_id })}
                  onClick={(e) => e.stopPropagation()}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  #{row.lead_id}
                </Anchor>
              </Table.Td>
              {shown('phone') && (
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {row.phone ?? '—'}
                  </Text>
                </Table.Td>
              )}
              {row.steps.map((s) => (
                <Table.Td key={s.step_id}>
                  <StepCell step={s} withTime={shown('sent_at')} />
                </Table.Td>
              ))}
              {shown('clicked') && (
                <Table.Td>
                  {row.clicked ? (
                    <IconCheck size={16} aria-label={t('audienceTable.yes')} color="var(--mantine-color-teal-6)" />
                  ) : (
                    <Text size="sm" c="dimmed" aria-hidden>
                      —
                    </Text>
                  )}
                </Table.Td>
              )}
              {shown('cost') && (
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(row.cost, currency)}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
      <TablePager
        page={table.page}
        lastPage={meta.last_page}
        total={meta.total}
        limit={table.limit}
        onPage={table.setPage}
        onLimit={table.setLimit}
      />
    </>
  );
}

/** One step for one recipient: its bucket, why (failed or skipped), when the gateway took it. */
function StepCell({ step, withTime }: { step: TRecipientStep; withTime: boolean }) {
  const { t } = useTranslation('campaigns');
  const reason = step.reason === null ? null : t(`audienceTable.reason.${step.reason}`, { defaultValue: step.reason });
  return (
    <Stack gap={2} align="flex-start">
      <Badge
        variant="light"
        color={BUCKET_COLORS[step.bucket]}
        tt="none"
        title={reason ?? undefined}
        data-bucket={step.bucket}
      >
        {t(`audienceTable.bucket.${step.bucket}`)}
      </Badge>
      {reason && (
        <Text size="xs" c="dimmed" lineClamp={1} title={reason}>
          {reason}
        </Text>
      )}
      {withTime && step.sent_at && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(step.sent_at)}
        </Text>
      )}
    </Stack>
  );
}
