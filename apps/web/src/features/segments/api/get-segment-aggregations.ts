import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type SegmentAggregations = { leads_count: number; duplicates_count: number; segments_count: number };

/** Total leads, duplicates and child segments of a segment: `GET /segments/{id}/aggregations`. */
export function getSegmentAggregations(id: number, signal?: AbortSignal) {
  return api.get<SegmentAggregations>(`/segments/${id}/aggregations`, undefined, signal);
}

export const segmentAggregationsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['segments', id, 'aggregations'],
    queryFn: ({ signal }) => getSegmentAggregations(id, signal),
    enabled: id > 0,
  });

export function useSegmentAggregations(id: number) {
  return useQuery(segmentAggregationsQueryOptions(id));
}
