import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getAttributes(signal?: AbortSignal) {
  return api.get<{ data: TLeadAttribute[] }>('/lead-attributes', undefined, signal);
}

export const attributesQueryOptions = () =>
  queryOptions({
    queryKey: ['attributes'],
    queryFn: ({ signal }) => getAttributes(signal),
    select: (r) => [...r.data].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id),
  });

/** The team's lead attributes in their sort order (one table column each). */
export function useAttributes() {
  return useQuery(attributesQueryOptions());
}
