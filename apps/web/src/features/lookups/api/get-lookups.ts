import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import { keepPreviousData, queryOptions, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type TLookupPage = { data: TLookup[]; meta: TPageMeta };
export const LOOKUPS_KEY = ['lookups'] as const;

export function getLookups(query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<TLookupPage>('/lookup', query, signal);
}

export const lookupsQueryOptions = (query: RequestOptions['query']) =>
  queryOptions({ queryKey: [...LOOKUPS_KEY, 'page', query], queryFn: ({ signal }) => getLookups(query, signal) });

/** `/lookup-management`'s page: 50 a page, search by source or list, sorted. */
export function useLookups(query: RequestOptions['query']) {
  return useQuery({ ...lookupsQueryOptions(query), placeholderData: keepPreviousData });
}

/**
 * A lookup as an event or an answer has it now, put in every page that shows it, so a running
 * lookup's percent, count and time left move without a refetch per second. A lookup on no loaded
 * page (a new one) makes the pages refetch instead.
 */
export function applyLookups(queryClient: QueryClient, lookups: TLookup[]) {
  let missing = false;
  for (const lookup of lookups) {
    let found = false;
    queryClient.setQueriesData<TLookupPage>({ queryKey: [...LOOKUPS_KEY, 'page'] }, (page) => {
      if (!page?.data.some((l) => l.id === lookup.id)) return page;
      found = true;
      return { ...page, data: page.data.map((l) => (l.id === lookup.id ? lookup : l)) };
    });
    if (!found) missing = true;
  }
  if (missing) void queryClient.invalidateQueries({ queryKey: [...LOOKUPS_KEY, 'page'] });
}
