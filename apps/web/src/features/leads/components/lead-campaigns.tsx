import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLeadCampaigns } from '../api/get-lead-campaigns.ts';

/** The lead's campaigns as chips, name and status, each opening its campaign; nothing when there are none. */
export function LeadCampaigns({ leadId, enabled }: { leadId: number; enabled: boolean }) {
  const { t } = useTranslation('leads');
  const { t: tc } = useTranslation('campaigns');
  const campaigns = useLeadCampaigns(leadId, enabled);
  const list = campaigns.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <Group gap="xs" aria-label={t('campaigns')} role="group">
      <Text size="sm" c="dimmed">
        {t('campaigns')}
      </Text>
      {list.map((c) => (
        <Badge
          key={c.id}
          component={Link}
          to={`/campaigns/${c.id}`}
          variant="light"
          color="grape"
          style={{ cursor: 'pointer', maxWidth: '100%' }}
          tt="none"
        >
          {`${c.name} · ${tc(`status.${c.status}`)}`}
        </Badge>
      ))}
    </Group>
  );
}
