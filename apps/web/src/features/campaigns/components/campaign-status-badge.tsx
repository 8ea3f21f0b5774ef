import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TCampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  processing: 'cyan',
  active: 'green',
  paused: 'yellow',
  completed: 'teal',
  failed: 'red',
  rejected: 'orange',
};

export function CampaignStatusBadge({ status }: { status: TCampaignStatus }) {
  const { t } = useTranslation('campaigns');
  return (
    <Badge variant="light" color={COLORS[status]} style={{ flexShrink: 0 }}>
      {t(`status.${status}`)}
    </Badge>
  );
}
