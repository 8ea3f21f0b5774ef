import type { TShortUrlDomain, TUpdateShortUrlDomainRequest } from '@herald/shared/short-links/short-links.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useUpdateShortUrlDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TUpdateShortUrlDomainRequest & { id: number }) =>
      api.put<{ message: string; code: string; data: TShortUrlDomain }>(`/short-url-domains/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['short-url-domains'] }),
  });
}
