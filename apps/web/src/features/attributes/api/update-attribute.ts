import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function updateAttribute({ id, ...body }: { id: number; name?: string; sort_order?: number }) {
  return api.put<TLeadAttribute>(`/lead-attributes/${id}`, body);
}

export function useUpdateAttribute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAttribute,
    // Attribute names also head the lead tables and the lead pages.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attributes'] }),
        queryClient.invalidateQueries({ queryKey: ['leads'] }),
      ]),
  });
}
