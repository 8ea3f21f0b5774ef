import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import { DEFAULT_MANUAL_STATUSES } from '@herald/shared/campaigns/campaign-moves';
import type { TConfigGeneral } from '@herald/shared/config/config.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The same `config/general` read the gateways screens share (same key, read once a session). */
export function useCampaignConfig() {
  return useQuery({
    queryKey: ['config', 'general'],
    queryFn: ({ signal }) => api.get<TConfigGeneral>('/config/general', undefined, signal),
    staleTime: Infinity,
    select: (config) => ({
      timezones: config.timezones_js,
      manualStatuses: (config.campaign_manual_status_list.length
        ? config.campaign_manual_status_list.map((o) => o.key)
        : DEFAULT_MANUAL_STATUSES) as readonly TCampaignStatus[],
    }),
  });
}
