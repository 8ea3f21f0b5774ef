import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Whether the team's plan includes its own short-link domains (`short-url-domain`). */
export const shortUrlDomainAccessQueryOptions = () =>
  queryOptions({
    queryKey: ['short-url-domains', 'has-access'],
    queryFn: ({ signal }) => api.get<{ access: boolean }>('/short-url-domains/has-access', undefined, signal),
  });

export function useShortUrlDomainAccess() {
  return useQuery(shortUrlDomainAccessQueryOptions());
}
