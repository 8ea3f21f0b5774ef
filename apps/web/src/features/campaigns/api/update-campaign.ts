import type { TCampaign, TUpdateCampaignRequest } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function updateCampaign({ id, ...body }: TUpdateCampaignRequest & { id: number }) {
  return api.put<TCampaign>(`/campaigns/${id}`, body);
}

export function useUpdateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCampaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
