import type { TCampaignRecipientPage } from '@herald/shared/campaigns/campaign-audience.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

/** `GET campaigns/{id}/leads`: the campaign's recipients and what each step did for them. */
export function getCampaignRecipients(id: number, query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<TCampaignRecipientPage>(`/campaigns/${id}/leads`, query, signal);
}

export function useCampaignRecipients(id: number, query: RequestOptions['query'], enabled = true) {
  return useQuery({
    queryKey: ['campaigns', 'recipients', id, query],
    queryFn: ({ signal }) => getCampaignRecipients(id, query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}
