import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { SegmentFields } from './create-segment.ts';

/** A segment that narrows its parent: `POST /segments/{id}/segments`. */
export function createChildSegment({ parentId, ...body }: SegmentFields & { parentId: number }) {
  return api.post<TSegment>(`/segments/${parentId}/segments`, body);
}

export function useCreateChildSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChildSegment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['segments'] }),
  });
}
