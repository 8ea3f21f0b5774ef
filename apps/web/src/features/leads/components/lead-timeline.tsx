import type { TLeadLogEntry } from '@herald/shared/leads/leads.schemas';
import { Anchor, Button, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/page-states.tsx';
import { TablePager } from '../../../components/table-pager.tsx';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useLeadLog } from '../api/get-lead-log.ts';
import { attributeNameLabel } from '../../../lib/attribute-label.ts';
import { HistoryWindowNote } from '../../../components/history-window-note.tsx';

const LOG_SIZES = [20, 50, 100] as const;

/**
 * Every change of the lead, newest first, with Refresh (spec section 2); `historyDays`: how far
 * back the plan shows it (null: all of it).
 */
export function LeadTimeline({
  leadId,
  historyDays,
  linkCampaigns = false,
}: {
  leadId: number;
  historyDays?: number | null;
  /** Whether a campaign message names its campaign as a link (those who may open campaigns). */
  linkCampaigns?: boolean;
}) {
  const { t } = useTranslation('leads');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);
  const log = useLeadLog(leadId, page, limit);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>{t('timeline')}</Title>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={() => log.refetch()}
          loading={log.isFetching}
        >
          {t('refresh')}
        </Button>
      </Group>
      {log.isPending ? (
        <LoadingState rows={4} />
      ) : log.isError ? (
        <ErrorState error={log.error} onRetry={() => log.refetch()} />
      ) : log.data.data.length === 0 ? (
        <EmptyState text={t('noHistory')} />
      ) : (
        <>
          <Timeline bulletSize={14} lineWidth={2} aria-label={t('timeline')}>
            {log.data.data.map((entry) => (
              // A campaign message's id is the message's, from another sequence than the log's.
              <Timeline.Item key={`${entry.type}:${entry.id}`} title={<EntryTitle entry={entry} />}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(entry.created_at)}
                  {entry.filename ? ` · ${entry.filename}` : ''}
                </Text>
                {entry.diff_log.map((diff, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no id
                  <Text key={i} size="sm" mt={2}>
                    {describeDiff(t, diff, entry.type)}
                  </Text>
                ))}
                {entry.campaign && <CampaignOf campaign={entry.campaign} link={linkCampaigns} />}
                {entry.message && <MessageDetails message={entry.message} />}
              </Timeline.Item>
            ))}
          </Timeline>
          <TablePager
            page={page}
            lastPage={log.data.meta.last_page}
            total={log.data.meta.total}
            limit={limit}
            sizes={LOG_SIZES}
            onPage={setPage}
            onLimit={(n) => {
              setLimit(n);
              setPage(1);
            }}
          />
        </>
      )}
      <HistoryWindowNote days={historyDays} />
    </Stack>
  );
}

/** A sent message's details: its sender, gateway, parts and cost (and where it stands now). */
function MessageDetails({ message }: { message: NonNullable<TLeadLogEntry['message']> }) {
  const { t } = useTranslation('leads');
  const parts = [
    t('message.from', { from: message.from ?? t('message.gatewaySender') }),
    message.gateway ? t('message.gateway', { gateway: message.gateway }) : null,
    t('message.parts', { count: message.parts }),
    formatMoney(message.price, message.currency),
    message.status ? t(`log.sms_status_${message.status}`, { defaultValue: message.status }) : null,
  ];
  return (
    <Text size="xs" c="dimmed" mt={2} data-testid="timeline-message">
      {parts.filter(Boolean).join(' · ')}
    </Text>
  );
}

/** Which campaign and step sent a campaign message; a link for those who may open campaigns. */
function CampaignOf({ campaign, link }: { campaign: NonNullable<TLeadLogEntry['campaign']>; link: boolean }) {
  const { t } = useTranslation('leads');
  const label = t('campaignStep', { name: campaign.name, step: campaign.step });
  return link ? (
    <Anchor component={Link} to={`/campaigns/${campaign.id}`} size="xs" mt={2} display="block">
      {label}
    </Anchor>
  ) : (
    <Text size="xs" mt={2}>
      {label}
    </Text>
  );
}

function EntryTitle({ entry }: { entry: TLeadLogEntry }) {
  const { t } = useTranslation('leads');
  return (
    <Text size="sm" fw={600}>
      {t(`log.${entry.action}`, { defaultValue: entry.action })}
    </Text>
  );
}

type Diff = TLeadLogEntry['diff_log'][number];

/** Names the server gives a short link's entries (a click, an unsubscribe), not attributes of the team. */
const LINK_ENTRY_NAMES: Record<string, string> = { link: 'shortLink', phone: 'common:attribute.phone' };

function describeDiff(t: TFunction<'leads'>, diff: Diff, type: TLeadLogEntry['type']) {
  const isStatus = diff.lead_attribute_name === 'status';
  const linkName = type === 'sms' ? LINK_ENTRY_NAMES[diff.lead_attribute_name ?? ''] : undefined;
  const name = isStatus
    ? t('statusLabel')
    : linkName
      ? t(linkName)
      : attributeNameLabel(diff.lead_attribute_name ?? '');
  const show = (v: string | null) => (v && isStatus ? t(`status.${v}`, { defaultValue: v }) : (v ?? ''));
  return t(`diff.${diff.action}`, {
    defaultValue: `${name}: ${show(diff.value_from)} → ${show(diff.value_to)}`,
    name,
    from: show(diff.value_from),
    to: show(diff.value_to ?? diff.lead_attribute_value),
  });
}
