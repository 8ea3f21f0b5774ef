import type { TAlphaName, TAlphaNameReview } from '@herald/shared/alpha-names/alpha-names.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const alphaNamesQueryOptions = () =>
  queryOptions({
    queryKey: ['alpha-names'],
    queryFn: ({ signal }) =>
      api.get<{ data: TAlphaName[]; review?: TAlphaNameReview }>('/alpha-names', undefined, signal),
  });

export function useAlphaNames() {
  return useQuery(alphaNamesQueryOptions());
}
