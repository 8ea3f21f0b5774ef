import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSourceWithLists } from '@herald/shared/sources/sources.schemas';
import { api } from '../../../lib/api-client.ts';

export function getAllSourcesWithLists(signal?: AbortSignal) {
  return api.get<{ data: TSourceWithLists[] }>('/all-sources-with-lists', { limit: 100 }, signal);
}

export const allSourcesWithListsQueryOptions = () =>
  queryOptions({
    queryKey: ['sources', 'all-with-lists'],
    queryFn: ({ signal }) => getAllSourcesWithLists(signal),
  });

/** Selector data (spec: selector fetches use limit 100). */
export function useAllSourcesWithLists(enabled = true) {
  return useQuery({ ...allSourcesWithListsQueryOptions(), enabled });
}
