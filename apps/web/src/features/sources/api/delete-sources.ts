import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** One id goes to `DELETE /sources/{id}`, several to `DELETE /sources/batch?ids[i]`. */
export function deleteSources(ids: number[]) {
  if (ids.length === 1) return api.delete<{ deleted: number }>(`/sources/${ids[0]}`);
  return api.delete<{ deleted: number }>(`/sources/batch?${idsQuery(ids)}`);
}

export function idsQuery(ids: number[]) {
  return ids.map((id, i) => `ids[${i}]=${id}`).join('&');
}

export function useDeleteSources() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSources,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['sources'] }),
        queryClient.invalidateQueries({ queryKey: ['leads'] }),
      ]),
  });
}
