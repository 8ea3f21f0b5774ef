import type { TCompletedCampaign } from '@herald/shared/campaigns/campaign-segments.schemas';
import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCompletedCampaigns(signal?: AbortSignal) {
  return api.get<{ data: TCompletedCampaign[]; meta: TPageMeta }>('/completed-campaigns', { limit: 100 }, signal);
}

/** The campaigns filter's choices: the team's campaigns whose sending is over (decision 039). */
export function useCompletedCampaigns(enabled: boolean) {
  return useQuery({
    queryKey: ['campaigns', 'completed'],
    queryFn: ({ signal }) => getCompletedCampaigns(signal),
    enabled,
  });
}
