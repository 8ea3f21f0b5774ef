import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignBatchResult } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';

/** One campaign through `PUT /campaigns/{id}/status`, several through the batch call. */
export async function setCampaignStatus({
  ids,
  status,
}: {
  ids: number[];
  status: TCampaignStatus;
}): Promise<Pick<TCampaignBatchResult, 'done' | 'refused'>> {
  if (ids.length === 1) {
    // Not toasted on the way: the caller may answer a missing plan with the activation prompt.
    await apiRequest<TCampaign>(`/campaigns/${ids[0]}/status`, { method: 'PUT', body: { status }, toast: false });
    return { done: 1, refused: [] };
  }
  return api.put<TCampaignBatchResult>('/campaigns/batch-status', { ids, status });
}

/**
 * `onPlanMissing`: called when the team has no plan in force; true when it showed the activation
 * prompt, which then stands instead of the error's toast.
 */
export function useSetCampaignStatus(options: { onPlanMissing?: () => boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (args: Parameters<typeof setCampaignStatus>[0]) => {
      try {
        return await setCampaignStatus(args);
      } catch (error) {
        if (isApiError(error) && error.code === 'subscription_required' && options.onPlanMissing?.())
          error.handled = true;
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
