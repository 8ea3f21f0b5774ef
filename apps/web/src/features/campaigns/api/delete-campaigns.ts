import type { TCampaignBatchResult } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client.ts';

/** One id goes to `DELETE /campaigns/{id}`, several to `DELETE /campaigns/batch` with the ids in the body. */
export async function deleteCampaigns(ids: number[]): Promise<TCampaignBatchResult | null> {
  if (ids.length === 1) {
    await api.delete(`/campaigns/${ids[0]}`);
    return null;
  }
  return apiRequest<TCampaignBatchResult>('/campaigns/batch', { method: 'DELETE', body: { ids } });
}

export function useDeleteCampaigns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCampaigns,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
