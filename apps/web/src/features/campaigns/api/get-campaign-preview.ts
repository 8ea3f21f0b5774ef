import type { TCampaignPreview } from '@herald/shared/campaigns/campaigns.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaignPreview(id: number, signal?: AbortSignal) {
  return api.get<TCampaignPreview>(`/campaigns/${id}/preview`, undefined, signal);
}

/** Under `campaigns`, so every edit of the campaign, its steps or audience recounts it. */
export function useCampaignPreview(id: number) {
  return useQuery({ queryKey: ['campaigns', 'preview', id], queryFn: ({ signal }) => getCampaignPreview(id, signal) });
}
