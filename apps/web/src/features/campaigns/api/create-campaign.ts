import type { TCampaign, TCreateCampaignRequest } from '@herald/shared/campaigns/campaigns.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The browser's zone goes along: it is a new campaign's default time zone. */
export function createCampaign(body: TCreateCampaignRequest) {
  return apiRequest<TCampaign>('/campaigns', {
    method: 'POST',
    body,
    headers: { 'x-timezone': Intl.DateTimeFormat().resolvedOptions().timeZone },
  });
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
