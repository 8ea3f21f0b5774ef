import type { TLeadPage } from '@herald/shared/leads/leads.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

/** A segment's leads, in the shape of every leads table: `GET /segments/{id}/leads`. */
export function getSegmentLeads(id: number, query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<TLeadPage>(`/segments/${id}/leads`, query, signal);
}

export const segmentLeadsQueryOptions = (id: number, query: RequestOptions['query']) =>
  queryOptions({
    queryKey: ['segments', id, 'leads', query],
    queryFn: ({ signal }) => getSegmentLeads(id, query, signal),
    enabled: id > 0,
  });

export function useSegmentLeads(id: number, query: RequestOptions['query']) {
  return useQuery({ ...segmentLeadsQueryOptions(id, query), placeholderData: keepPreviousData });
}
