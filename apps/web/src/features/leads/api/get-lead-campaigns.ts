import type { TLeadCampaigns } from '@herald/shared/leads/leads.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getLeadCampaigns(leadId: number, signal?: AbortSignal) {
  return api.get<TLeadCampaigns>(`/leads/${leadId}/campaigns`, undefined, signal);
}

/** The campaigns that took the lead as a recipient; keyed under the lead and under campaigns, so a status change shows. */
export function useLeadCampaigns(leadId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['campaigns', 'lead', leadId],
    queryFn: ({ signal }) => getLeadCampaigns(leadId, signal),
    enabled: enabled && leadId > 0,
  });
}
