import type { TCampaignPage } from '@herald/shared/campaigns/campaigns.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export function getCampaigns(query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<TCampaignPage>('/campaigns', query, signal);
}

export const campaignsQueryOptions = (query: RequestOptions['query']) =>
  queryOptions({ queryKey: ['campaigns', 'page', query], queryFn: ({ signal }) => getCampaigns(query, signal) });

export function useCampaigns(query: RequestOptions['query']) {
  return useQuery({ ...campaignsQueryOptions(query), placeholderData: keepPreviousData });
}
