import type { TShortUrlDomain } from '@herald/shared/short-links/short-links.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const shortUrlDomainsQueryOptions = () =>
  queryOptions({
    queryKey: ['short-url-domains'],
    queryFn: ({ signal }) => api.get<{ data: TShortUrlDomain[] }>('/short-url-domains', undefined, signal),
  });

export function useShortUrlDomains() {
  return useQuery(shortUrlDomainsQueryOptions());
}
