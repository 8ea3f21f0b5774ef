import type { TShortUrlLinkHost } from '@herald/shared/short-links/short-links.schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * The host the team's next links are made on; under `short-url-domains`, so a change of the
 * domains (which invalidates that key) asks again. Everyone who sends may read it.
 */
export const linkHostQueryOptions = () =>
  queryOptions({
    queryKey: ['short-url-domains', 'link-host'],
    queryFn: ({ signal }) => api.get<TShortUrlLinkHost>('/short-url-domains/link-host', undefined, signal),
  });
