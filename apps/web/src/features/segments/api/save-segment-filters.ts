import type { TSegmentConditionInput } from '@herald/shared/segments/segment-conditions';
import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Replaces a segment's whole condition list: `POST /segments/{id}/filters`. One call, one
 * transaction (see docs/decisions/008-web-app.md for why not the three sync calls).
 */
export function saveSegmentFilters({ id, filters }: { id: number; filters: TSegmentConditionInput[] }) {
  return api.post<TSegment>(`/segments/${id}/filters`, { filters });
}

export function useSaveSegmentFilters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSegmentFilters,
    // The count and the table show the change at once (the server's cache follows the data version).
    onSuccess: (segment) => {
      queryClient.setQueryData(['segments', segment.id, 'detail'], segment);
      return queryClient.invalidateQueries({ queryKey: ['segments'] });
    },
  });
}
