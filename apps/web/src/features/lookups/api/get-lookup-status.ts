import type { TLookupStatusSummary } from '@herald/shared/lookups/lookups.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { LOOKUPS_KEY } from './get-lookups.ts';

/** `GET lookup/status`: whether any lookup runs, its time left, the price and the caller's balance. */
export function useLookupStatus(enabled = true) {
  return useQuery({
    queryKey: [...LOOKUPS_KEY, 'status'],
    queryFn: ({ signal }) => api.get<TLookupStatusSummary>('/lookup/status', undefined, signal),
    enabled,
  });
}
