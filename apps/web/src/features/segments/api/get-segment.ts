import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getSegment(id: number, signal?: AbortSignal) {
  return api.get<TSegment>(`/segments/${id}`, undefined, signal);
}

export const segmentQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['segments', id, 'detail'],
    queryFn: ({ signal }) => getSegment(id, signal),
    enabled: id > 0,
  });

export function useSegment(id: number) {
  return useQuery(segmentQueryOptions(id));
}
