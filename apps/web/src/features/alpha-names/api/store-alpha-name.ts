import type { TAlphaName } from '@herald/shared/alpha-names/alpha-names.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface StoreAlphaNameResult {
  status: 'ok' | 'limit';
  message: string;
  code: string;
  data?: TAlphaName;
}

export function useStoreAlphaName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<StoreAlphaNameResult>('/alpha-names/store', { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alpha-names'] }),
  });
}
