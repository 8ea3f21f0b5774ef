import type { TLeadCounts } from '@herald/shared/sources/sources.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getSourceAggregations(id: number, signal?: AbortSignal) {
  return api.get<TLeadCounts>(`/sources/${id}/aggregations`, undefined, signal);
}

export const sourceAggregationsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['sources', 'one', id, 'aggregations'],
    queryFn: ({ signal }) => getSourceAggregations(id, signal),
  });

export function useSourceAggregations(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...sourceAggregationsQueryOptions(id), enabled: id > 0 });
}
