import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function createAttributes(items: { name: string; sort_order: number }[]) {
  return api.post<{ data: TLeadAttribute[] }>('/lead-attributes', items);
}

export function useCreateAttributes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAttributes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['attributes'] }),
  });
}
