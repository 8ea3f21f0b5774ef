import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getListAggregations(id: number, signal?: AbortSignal) {
  return api.get<TLeadCounts>(`/sources/lists/${id}/aggregations`, undefined, signal);
}

export const listAggregationsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['sources', 'list', id, 'aggregations'],
    queryFn: ({ signal }) => getListAggregations(id, signal),
  });

export function useListAggregations(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...listAggregationsQueryOptions(id), enabled: id > 0 });
}
