import type { TCampaignFrequencyCap } from '@herald/shared/campaigns/campaign-live.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const campaignFrequencyCapQueryKey = ['settings', 'campaign-frequency-cap'] as const;

export function getCampaignFrequencyCap(signal?: AbortSignal) {
  return api.get<TCampaignFrequencyCap>('/settings/campaign-frequency-cap', undefined, signal);
}

export const campaignFrequencyCapQueryOptions = () =>
  queryOptions({ queryKey: campaignFrequencyCapQueryKey, queryFn: ({ signal }) => getCampaignFrequencyCap(signal) });

/** The team's frequency cap across campaigns (decision 034); `messages` null: off. */
export function useCampaignFrequencyCap() {
  return useQuery(campaignFrequencyCapQueryOptions());
}
