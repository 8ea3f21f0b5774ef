import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useDeleteShortUrlDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string; code: string }>(`/short-url-domains/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['short-url-domains'] }),
  });
}
