import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { GATEWAYS_KEY } from './get-gateways.ts';

export function deleteGateway(id: number) {
  return api.delete<{ message: string; code: string }>(`/config/gateway/messaging/${id}`);
}

export function useDeleteGateway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGateway,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GATEWAYS_KEY }),
  });
}
