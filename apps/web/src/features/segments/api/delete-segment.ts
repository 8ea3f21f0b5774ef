import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Deletes a segment and its children: `DELETE /segments/{id}`. */
export function deleteSegment(id: number) {
  return api.delete<{ deleted: number }>(`/segments/${id}`);
}

export function useDeleteSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSegment,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: ['segments', id] });
      return queryClient.invalidateQueries({ queryKey: ['segments'] });
    },
  });
}
