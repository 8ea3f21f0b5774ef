import type { TSource } from '@herald/shared/sources/sources.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function updateSource({ id, ...body }: { id: number; name?: string; status?: 'active' | 'inactive' }) {
  return api.put<TSource>(`/sources/${id}`, body);
}

export function useUpdateSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSource,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sources'] }),
  });
}
