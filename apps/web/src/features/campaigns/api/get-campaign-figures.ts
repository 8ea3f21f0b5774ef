import type { TCampaignFigures } from '@herald/shared/campaigns/campaign-audience.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET campaigns/results?ids=`: sent, delivered and clicked percentages and actual cost of the page's campaigns. */
export function getCampaignFigures(ids: number[], signal?: AbortSignal) {
  return api.get<{ data: TCampaignFigures[] }>('/campaigns/results', { ids: ids.join(',') }, signal);
}

export function useCampaignFigures(ids: number[]) {
  return useQuery({
    queryKey: ['campaigns', 'figures', ids],
    queryFn: ({ signal }) => getCampaignFigures(ids, signal),
    select: (r) => new Map(r.data.map((f) => [f.id, f])),
    placeholderData: keepPreviousData,
    enabled: ids.length > 0,
  });
}
