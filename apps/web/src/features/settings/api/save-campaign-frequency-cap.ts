import type { TCampaignFrequencyCap } from '@herald/shared/campaigns/campaign-live.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { campaignFrequencyCapQueryKey } from './get-campaign-frequency-cap.ts';

export function saveCampaignFrequencyCap(cap: TCampaignFrequencyCap) {
  return api.put<TCampaignFrequencyCap>('/settings/campaign-frequency-cap', cap);
}

export function useSaveCampaignFrequencyCap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCampaignFrequencyCap,
    onSuccess: (data) => queryClient.setQueryData(campaignFrequencyCapQueryKey, data),
  });
}
