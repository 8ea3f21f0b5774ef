import type { TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaign(id: number, signal?: AbortSignal) {
  return api.get<TCampaign>(`/campaigns/${id}`, undefined, signal);
}

export function useCampaign(id: number) {
  return useQuery({ queryKey: ['campaigns', 'one', id], queryFn: ({ signal }) => getCampaign(id, signal) });
}
