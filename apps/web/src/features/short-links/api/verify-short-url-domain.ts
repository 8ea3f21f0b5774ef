import type { TShortUrlDomain } from '@herald/shared/short-links/short-links.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** "Verify now": the server asks the domain for its proof at once (decision 028). */
export function useVerifyShortUrlDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.post<{ message: string; code: string; data: TShortUrlDomain }>(`/short-url-domains/${id}/verify`, {}),
    // A failed check is recorded too (its time), so the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['short-url-domains'] }),
  });
}
