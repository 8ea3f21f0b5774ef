import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { SegmentFields } from './create-segment.ts';

/** Rename a segment or flip 'Update dynamically': `PUT /segments/{id}`. */
export function updateSegment({ id, ...body }: SegmentFields & { id: number }) {
  return api.put<TSegment>(`/segments/${id}`, body);
}

export function useUpdateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSegment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['segments'] }),
  });
}
