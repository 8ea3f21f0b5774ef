import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { applyLookups, LOOKUPS_KEY } from './get-lookups.ts';

/** `PUT lookup/{id}`: the gateway that looks the phones up (not while it runs). */
export function useUpdateLookup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, gatewayId }: { id: number; gatewayId: number }) =>
      api.put<TLookup>(`/lookup/${id}`, { gateway_id: gatewayId }),
    onSuccess: (lookup) => applyLookups(queryClient, [lookup]),
  });
}

/**
 * `DELETE lookup/{id}` for each chosen lookup (the API deletes one at a time). The ones the server
 * refused are counted out and their errors shown by the client as they come.
 */
export function useDeleteLookups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const results = await Promise.allSettled(ids.map((id) => api.delete(`/lookup/${id}`)));
      return results.filter((r) => r.status === 'fulfilled').length;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: LOOKUPS_KEY }),
  });
}
