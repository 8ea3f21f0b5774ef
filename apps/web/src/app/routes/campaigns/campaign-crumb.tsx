import { useQuery } from '@tanstack/react-query';
import type { Params } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../features/auth/api/get-current-user.ts';
import { getCampaign } from '../../../features/campaigns/api/get-campaign.ts';

/** The campaign's name over its audience and a lead opened from it (asked only of those who may read it). */
export function CampaignCrumb({ params }: { params: Params }) {
  const { t } = useTranslation('campaigns');
  const { data: user } = useCurrentUser();
  const n = Number(params.campaignId);
  const readable = !!user?.permissions.includes('campaigns:read') && Number.isInteger(n) && n > 0;
  const campaign = useQuery({
    queryKey: ['campaigns', 'one', n],
    queryFn: ({ signal }) => getCampaign(n, signal),
    enabled: readable,
  });
  return campaign.data?.name ?? t('tabs.audience');
}
