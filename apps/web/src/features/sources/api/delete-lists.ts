import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { idsQuery } from './delete-sources.ts';

export function deleteLists(ids: number[]) {
  if (ids.length === 1) return api.delete<{ deleted: number }>(`/sources/lists/${ids[0]}`);
  return api.delete<{ deleted: number }>(`/sources/lists/batch?${idsQuery(ids)}`);
}

export function useDeleteLists() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLists,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['sources'] }),
        queryClient.invalidateQueries({ queryKey: ['leads'] }),
      ]),
  });
}
