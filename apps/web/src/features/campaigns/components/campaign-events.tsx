import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useServerEvent } from '../../../lib/live-events.tsx';

/**
 * Mounted once in the shell (decision 034): a `CampaignStatus` event refreshes the campaigns the
 * screens show (the list, its counts, the campaign's page and log), and when the balance paused a
 * campaign the user launched, it says so wherever the user is, with the way to the campaign.
 */
export function CampaignEvents({ userId }: { userId: number | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useServerEvent('CampaignStatus', (event) => {
    void queryClient.invalidateQueries({ queryKey: ['campaigns'] });
    if (event.status !== 'paused' || event.reason !== 'campaign_policy_not_enough_balance') return;
    if (userId === undefined || event.launched_by !== userId) return;
    const id = `campaign-balance-paused-${event.id}`;
    notifications.show({
      id,
      color: 'yellow',
      autoClose: false,
      title: t('processes.campaign.balancePaused', { name: event.name }),
      message: (
        <Anchor
          component="button"
          onClick={() => {
            notifications.hide(id);
            void navigate(`/campaigns/${event.id}`);
          }}
        >
          {t('processes.campaign.open')}
        </Anchor>
      ),
    });
  });
  return null;
}
