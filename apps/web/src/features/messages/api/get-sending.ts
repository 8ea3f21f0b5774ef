import type { TAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import type { TLeadPage } from '@herald/shared/leads/leads.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface SendingGateway {
  id: number;
  name: string;
  type: string;
  default: boolean;
  from: string | null;
}

/** Active gateways that send (every role may list them, without their settings). */
export function useSendingGateways(enabled: boolean) {
  return useQuery({
    queryKey: ['gateways', 'sending'],
    queryFn: ({ signal }) =>
      api.get<{ data: SendingGateway[] }>('/config/gateway/messaging/sending', undefined, signal),
    select: (r) => r.data,
    enabled,
  });
}

/** The team's active alpha names, offered as senders. */
export function useSenderNames(enabled: boolean) {
  return useQuery({
    queryKey: ['alpha-names'],
    queryFn: ({ signal }) => api.get<{ data: TAlphaName[] }>('/alpha-names', undefined, signal),
    select: (r) => r.data.filter((n) => n.status === 1),
    enabled,
  });
}

/** Leads matching the search: page 1, five of them (spec: the single SMS form's lead search). */
export function useLeadSearch(search: string) {
  return useQuery({
    queryKey: ['leads', 'page', 'all', { page: 1, limit: 5, search }],
    queryFn: ({ signal }) => api.get<TLeadPage>('/leads', { page: 1, limit: 5, search }, signal),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
}
