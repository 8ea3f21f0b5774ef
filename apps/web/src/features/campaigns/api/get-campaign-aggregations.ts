import type { TCampaignAggregations } from '@herald/shared/campaigns/campaigns.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaignAggregations(signal?: AbortSignal) {
  return api.get<TCampaignAggregations>('/campaigns/aggregations', undefined, signal);
}

export function useCampaignAggregations() {
  return useQuery({
    queryKey: ['campaigns', 'aggregations'],
    queryFn: ({ signal }) => getCampaignAggregations(signal),
  });
}
