import { campaignProcessOf } from '@herald/shared/campaigns/campaign-live.schemas';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { Anchor, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../../lib/notify.ts';
import { useSetCampaignStatus } from '../api/set-campaign-status.ts';

/**
 * Under a campaign's process in the header popover (decision 034): pause it while it sends, resume
 * it when paused (paused → scheduled, decision 031: it continues where it stopped), and its page.
 */
export function CampaignProcessActions({ process }: { process: TProcess }) {
  const { t } = useTranslation();
  const status = useSetCampaignStatus();
  const campaign = campaignProcessOf(process);
  if (!campaign) return null;
  const to = process.status === 'running' ? 'paused' : process.status === 'paused' ? 'scheduled' : null;
  const label = to === 'paused' ? 'processes.campaign.pause' : 'processes.campaign.resume';
  return (
    <Group gap="xs" justify="space-between">
      <Anchor component={Link} to={`/campaigns/${campaign.campaign_id}`} size="xs">
        {t('processes.campaign.open')}
      </Anchor>
      {to && (
        <Button
          size="compact-xs"
          variant="light"
          color={to === 'paused' ? 'yellow' : 'indigo'}
          loading={status.isPending}
          aria-label={t(`${label}Named`, { name: process.title })}
          onClick={() =>
            status.mutate(
              { ids: [campaign.campaign_id], status: to },
              {
                onSuccess: () =>
                  notifySuccess(t(to === 'paused' ? 'processes.campaign.paused' : 'processes.campaign.resumed')),
              },
            )
          }
        >
          {t(label)}
        </Button>
      )}
    </Group>
  );
}
