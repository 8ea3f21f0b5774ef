import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useSetDefaultAlphaName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.put<{ message: string; code: string }>(`/alpha-names/default/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alpha-names'] }),
  });
}
