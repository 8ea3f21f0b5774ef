import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function deleteAttribute(id: number) {
  return api.delete<{ message: string }>(`/lead-attributes/${id}`);
}

export function useDeleteAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAttribute,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attributes'] }),
        queryClient.invalidateQueries({ queryKey: ['leads'] }),
      ]),
  });
}
