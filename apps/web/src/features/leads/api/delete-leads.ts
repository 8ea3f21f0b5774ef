import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';

export function deleteLeads(ids: number[]) {
  if (ids.length === 1) return api.delete<{ deleted: number }>(`/leads/${ids[0]}`);
  return apiRequest<{ deleted: number }>('/leads/batch', { method: 'DELETE', body: { ids } });
}

export function useDeleteLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLeads,
    onSuccess: (_data, ids) => {
      // The deleted leads' own queries would only answer 404 now; not awaited, so the lead page
      // can leave at once instead of waiting for the tables to reload.
      for (const id of ids) queryClient.removeQueries({ queryKey: ['leads', 'one', id] });
      void invalidateLeads(queryClient);
    },
  });
}
