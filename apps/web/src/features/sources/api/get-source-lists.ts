import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TList } from '@herald/shared/sources/sources.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { PageQuery } from './get-sources.ts';

export function getSourceLists(sourceId: number, query: PageQuery, signal?: AbortSignal) {
  return api.get<{ data: TList[]; meta: TPageMeta }>(`/sources/${sourceId}/lists`, query, signal);
}

export const sourceListsQueryOptions = (sourceId: number, query: PageQuery) =>
  queryOptions({
    queryKey: ['sources', 'one', sourceId, 'lists', query],
    queryFn: ({ signal }) => getSourceLists(sourceId, query, signal),
  });

export function useSourceLists(sourceId: number, query: PageQuery) {
  return useQuery({
    ...sourceListsQueryOptions(sourceId, query),
    placeholderData: keepPreviousData,
    enabled: sourceId > 0,
  });
}
