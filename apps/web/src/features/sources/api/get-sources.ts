import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TSource } from '@herald/shared/sources/sources.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type PageQuery = RequestOptions['query'];

export function getSources(query: PageQuery, signal?: AbortSignal) {
  return api.get<{ data: TSource[]; meta: TPageMeta }>('/sources', query, signal);
}

export const sourcesQueryOptions = (query: PageQuery) =>
  queryOptions({ queryKey: ['sources', 'page', query], queryFn: ({ signal }) => getSources(query, signal) });

export function useSources(query: PageQuery) {
  return useQuery({ ...sourcesQueryOptions(query), placeholderData: keepPreviousData });
}
