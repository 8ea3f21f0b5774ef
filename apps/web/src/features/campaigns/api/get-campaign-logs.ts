import type { TCampaignLog } from '@herald/shared/campaigns/campaigns.schemas';
import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCampaignLogs(id: number, query: { page: number; limit: number }, signal?: AbortSignal) {
  return api.get<{ data: TCampaignLog[]; meta: TPageMeta }>(`/campaigns/${id}/campaign-logs`, query, signal);
}

export function useCampaignLogs(id: number, query: { page: number; limit: number }) {
  return useQuery({
    queryKey: ['campaigns', 'logs', id, query],
    queryFn: ({ signal }) => getCampaignLogs(id, query, signal),
    placeholderData: keepPreviousData,
  });
}
