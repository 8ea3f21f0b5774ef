import type { TLeadDuplicates } from '@herald/shared/leads/leads.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getLeadDuplicates(id: number, signal?: AbortSignal) {
  return api.get<TLeadDuplicates>(`/leads/${id}/duplicates`, undefined, signal);
}

export const leadDuplicatesQueryOptions = (id: number) =>
  queryOptions({
    // Under the lead's own key, so whatever refreshes the lead refreshes who shares its phones.
    queryKey: ['leads', 'one', id, 'duplicates'],
    queryFn: ({ signal }) => getLeadDuplicates(id, signal),
  });

/** The leads that share a phone with lead `id`; asked only once the user opens them. */
export function useLeadDuplicates(id: number, enabled: boolean) {
  return useQuery({ ...leadDuplicatesQueryOptions(id), enabled: enabled && id > 0 });
}
