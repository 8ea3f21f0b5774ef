import type { TGateway, TGatewayRequest } from '@herald/shared/gateways/gateways.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { GATEWAYS_KEY } from './get-gateways.ts';

/** Adds a gateway, or replaces one's settings when `id` is given. */
export function saveGateway({ id, ...body }: TGatewayRequest & { id?: number }) {
  // The form shows a refusal under its fields, so no toast.
  return id === undefined
    ? apiRequest<TGateway>('/config/gateway/messaging', { method: 'POST', body, toast: false })
    : apiRequest<TGateway>(`/config/gateway/messaging/${id}`, { method: 'PUT', body, toast: false });
}

export function useSaveGateway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGateway,
    // Making one gateway the default moves the flag off another: the whole list is read again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GATEWAYS_KEY }),
  });
}
