import type { TShortUrlDomain, TStoreShortUrlDomainRequest } from '@herald/shared/short-links/short-links.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useStoreShortUrlDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TStoreShortUrlDomainRequest) =>
      api.post<{ message: string; code: string; data: TShortUrlDomain }>('/short-url-domains', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['short-url-domains'] }),
  });
}
