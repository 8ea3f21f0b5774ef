import type { TList } from '@herald/shared/sources/sources.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function createList({ sourceId, ...body }: { sourceId: number; name: string; status: 'active' | 'inactive' }) {
  return api.post<TList>(`/sources/${sourceId}/lists`, body);
}

export function useCreateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createList,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sources'] }),
  });
}
