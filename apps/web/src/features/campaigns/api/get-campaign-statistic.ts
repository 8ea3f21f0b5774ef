import { CAMPAIGN_PROCESS_KIND } from '@herald/shared/campaigns/campaign-live.schemas';
import type {
  TCampaignStatistic,
  TStatisticFilterType,
  TStatisticLead,
} from '@herald/shared/campaigns/campaign-statistics.schemas';
import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';

/** While a campaign sends, its figures are read again this often (the spec's import polling, 3 s, is the floor). */
const SENDING_REFETCH_MS = 5_000;
/** After it ended, reports and clicks still come for a while: read again this often, for as long as a report may come. */
const ENDED_REFETCH_MS = 30_000;

export function getCampaignStatistic(id: number, signal?: AbortSignal) {
  return api.get<TCampaignStatistic>(`/campaigns/${id}/statistic`, undefined, signal);
}

/**
 * The campaign's figures, live: a `CampaignStatus` event refreshes every `['campaigns']` query (the
 * shell's `CampaignEvents`), the launcher's campaign process moves refresh these, and while it sends
 * they are read every 5 s (reports arrive between the events); for 72 hours after it ended (late
 * reports and clicks), every 30 s.
 */
export function useCampaignStatistic(id: number, live: 'sending' | 'ended' | false) {
  const queryClient = useQueryClient();
  const queryKey = ['campaigns', 'statistic', id];
  useServerEvent('ProcessStatus', (process) => {
    if (process.kind === CAMPAIGN_PROCESS_KIND && Number(process.message?.params.campaign_id) === id)
      void queryClient.invalidateQueries({ queryKey });
  });
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => getCampaignStatistic(id, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live === 'sending' ? SENDING_REFETCH_MS : live === 'ended' ? ENDED_REFETCH_MS : false,
  });
}

export type StatisticLeadsQuery = { filter_type: TStatisticFilterType; step_id?: number; page: number; limit: number };

export function useStatisticLeads(id: number, query: StatisticLeadsQuery | null) {
  return useQuery({
    queryKey: ['campaigns', 'statistic-leads', id, query],
    queryFn: ({ signal }) =>
      api.get<{ data: TStatisticLead[]; meta: TPageMeta }>(
        `/campaigns/${id}/statistic-leads`,
        query as StatisticLeadsQuery,
        signal,
      ),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
