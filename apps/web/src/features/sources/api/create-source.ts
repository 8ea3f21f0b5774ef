import type { TSource } from '@herald/shared/sources/sources.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function createSource(body: { name: string }) {
  return api.post<TSource>('/sources', body);
}

export function useCreateSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSource,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sources'] }),
  });
}
