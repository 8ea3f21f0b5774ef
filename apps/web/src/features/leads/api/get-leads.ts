import type { TLeadPage } from '@herald/shared/leads/leads.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

/** All leads of the team, or one list's (`GET /lists/{id}/leads`). */
export function getLeads(listId: number | undefined, query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<TLeadPage>(listId ? `/lists/${listId}/leads` : '/leads', query, signal);
}

export const leadsQueryOptions = (listId: number | undefined, query: RequestOptions['query']) =>
  queryOptions({
    queryKey: ['leads', 'page', listId ?? 'all', query],
    queryFn: ({ signal }) => getLeads(listId, query, signal),
  });

export function useLeads(listId: number | undefined, query: RequestOptions['query']) {
  return useQuery({ ...leadsQueryOptions(listId, query), placeholderData: keepPreviousData });
}
