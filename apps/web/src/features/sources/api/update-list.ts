import type { TList } from '@herald/shared/sources/sources.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function updateList({ id, ...body }: { id: number; name?: string; status?: 'active' | 'inactive' }) {
  return api.put<TList>(`/sources/lists/${id}`, body);
}

export function useUpdateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateList,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sources'] }),
  });
}
