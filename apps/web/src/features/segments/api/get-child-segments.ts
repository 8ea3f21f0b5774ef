import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';
import type { SegmentPage } from './get-segments.ts';

/** A segment's child segments: `GET /segments/{id}/segments`. */
export function getChildSegments(id: number, query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<SegmentPage>(`/segments/${id}/segments`, query, signal);
}

export const childSegmentsQueryOptions = (id: number, query: RequestOptions['query']) =>
  queryOptions({
    queryKey: ['segments', id, 'children', query],
    queryFn: ({ signal }) => getChildSegments(id, query, signal),
    enabled: id > 0,
  });

export function useChildSegments(id: number, query: RequestOptions['query']) {
  return useQuery({ ...childSegmentsQueryOptions(id, query), placeholderData: keepPreviousData });
}
