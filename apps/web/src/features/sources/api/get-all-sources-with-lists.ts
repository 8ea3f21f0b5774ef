import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface SourceWithLists {
  id: number;
  name: string;
  status: string;
  lists: { id: number; name: string; status: 'active' | 'inactive' }[];
}

export function getAllSourcesWithLists(signal?: AbortSignal) {
  return api.get<{ data: SourceWithLists[] }>('/all-sources-with-lists', { limit: 100 }, signal);
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
