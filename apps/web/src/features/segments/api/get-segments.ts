import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type SegmentPage = { data: TSegment[]; meta: TPageMeta };

/** The team's audiences (root segments): `GET /segments`. */
export function getSegments(query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<SegmentPage>('/segments', query, signal);
}

export const segmentsQueryOptions = (query: RequestOptions['query']) =>
  queryOptions({ queryKey: ['segments', 'page', query], queryFn: ({ signal }) => getSegments(query, signal) });

export function useSegments(query: RequestOptions['query']) {
  return useQuery({ ...segmentsQueryOptions(query), placeholderData: keepPreviousData });
}
