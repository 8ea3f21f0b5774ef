import type {
  TCampaignStep,
  TCreateCampaignStepRequest,
  TUpdateCampaignStepRequest,
} from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaignSteps(campaignId: number, signal?: AbortSignal) {
  return api.get<TCampaignStep[]>(`/campaigns/${campaignId}/campaign-steps`, undefined, signal);
}

/** `running`: the campaign is under way, so a lookup step not yet sent may move at any moment. */
export function useCampaignSteps(campaignId: number, running = false) {
  return useQuery({
    queryKey: ['campaigns', 'steps', campaignId],
    queryFn: ({ signal }) => getCampaignSteps(campaignId, signal),
    // A lookup step's lookup moves without a campaign event: read again until it is sent.
    refetchInterval: (q) =>
      running && q.state.data?.some((s) => s.type === 'lookup' && s.status !== 'sent') ? 3_000 : false,
  });
}

function useStepMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }) });
}

export const useCreateCampaignStep = () =>
  useStepMutation(({ campaignId, ...body }: TCreateCampaignStepRequest & { campaignId: number }) =>
    api.post<TCampaignStep>(`/campaigns/${campaignId}/campaign-steps`, body),
  );

export const useUpdateCampaignStep = () =>
  useStepMutation(({ id, ...body }: TUpdateCampaignStepRequest & { id: number }) =>
    api.put<TCampaignStep>(`/campaign-steps/${id}`, body),
  );

export const useDeleteCampaignStep = () => useStepMutation((id: number) => api.delete(`/campaign-steps/${id}`));
