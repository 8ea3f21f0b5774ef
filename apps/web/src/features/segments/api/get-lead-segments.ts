import type { TLeadSegments } from '@herald/shared/segments/segments.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getLeadSegments(leadId: number, signal?: AbortSignal) {
  return api.get<TLeadSegments>(`/leads/${leadId}/segments`, undefined, signal);
}

/**
 * The audiences and segments a lead belongs to now. Keyed under the lead so that editing it
 * (which can move it in or out of a dynamic audience) refreshes the chips.
 */
export function useLeadSegments(leadId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['leads', 'one', leadId, 'segments'],
    queryFn: ({ signal }) => getLeadSegments(leadId, signal),
    enabled: enabled && leadId > 0,
    // Membership also changes when any segment's conditions do: ask again whenever the page opens.
    staleTime: 0,
  });
}
