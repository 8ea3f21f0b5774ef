import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignBatchResult } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** One campaign through `PUT /campaigns/{id}/status`, several through the batch call. */
export async function setCampaignStatus({
  ids,
  status,
}: {
  ids: number[];
  status: TCampaignStatus;
}): Promise<Pick<TCampaignBatchResult, 'done' | 'refused'>> {
  if (ids.length === 1) {
    await api.put<TCampaign>(`/campaigns/${ids[0]}/status`, { status });
    return { done: 1, refused: [] };
  }
  return api.put<TCampaignBatchResult>('/campaigns/batch-status', { ids, status });
}

export function useSetCampaignStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCampaignStatus,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
