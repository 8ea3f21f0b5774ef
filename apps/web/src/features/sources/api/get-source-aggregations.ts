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
  return useQuery(sourceAggregationsQueryOptions(id));
}
