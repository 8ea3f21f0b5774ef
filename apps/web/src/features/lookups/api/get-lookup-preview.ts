import type { TLookupPreview } from '@herald/shared/lookups/lookups.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { LOOKUPS_KEY } from './get-lookups.ts';

export type LookupTarget = { kind: 'sources' | 'lists'; ids: number[] };

/**
 * `POST lookup/preview`: how many phones the chosen sources or lists hold, how many already have a
 * fresh result (free), and the price against the balance. A read, though posted (the ids may be many).
 */
export function useLookupPreview(target: LookupTarget | null) {
  return useQuery({
    queryKey: [...LOOKUPS_KEY, 'preview', target],
    queryFn: () =>
      api.post<TLookupPreview>(
        '/lookup/preview',
        target?.kind === 'sources' ? { source_ids: target.ids } : { list_ids: target?.ids ?? [] },
      ),
    enabled: target !== null && target.ids.length > 0,
    staleTime: 0,
    gcTime: 0,
  });
}
