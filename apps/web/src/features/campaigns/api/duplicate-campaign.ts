import type { TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function duplicateCampaign(id: number) {
  return api.post<TCampaign>(`/campaigns/${id}/duplicate`);
}

export function useDuplicateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicateCampaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
