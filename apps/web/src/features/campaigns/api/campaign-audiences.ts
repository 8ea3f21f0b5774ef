import type { TAddCampaignAudiencesRequest, TCampaignAudience } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaignAudiences(campaignId: number, signal?: AbortSignal) {
  return api.get<TCampaignAudience[]>(`/campaigns/${campaignId}/audiences`, undefined, signal);
}

export function useCampaignAudiences(campaignId: number) {
  return useQuery({
    queryKey: ['campaigns', 'audiences', campaignId],
    queryFn: ({ signal }) => getCampaignAudiences(campaignId, signal),
  });
}

export function useAddCampaignAudiences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ campaignId, ...body }: TAddCampaignAudiencesRequest & { campaignId: number }) =>
      api.post<TCampaignAudience[]>(`/campaigns/${campaignId}/audiences`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}

export function useRemoveCampaignAudience() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ campaignId, audienceId }: { campaignId: number; audienceId: number }) =>
      api.delete(`/campaigns/${campaignId}/audiences/${audienceId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
