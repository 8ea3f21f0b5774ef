import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** A copy of a segment with its conditions: `POST /segments/{id}/clone`. */
export function cloneSegment({ id, name }: { id: number; name: string }) {
  return api.post<TSegment>(`/segments/${id}/clone`, { name });
}

export function useCloneSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cloneSegment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['segments'] }),
  });
}
