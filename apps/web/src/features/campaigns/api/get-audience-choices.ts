import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The team's audiences (root segments), newest first: where a segment made from a campaign may go. */
export function useAudienceChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['segments', 'choices'],
    queryFn: ({ signal }) => api.get<{ data: TSegment[] }>('/segments', { limit: 100 }, signal),
    enabled,
  });
}
