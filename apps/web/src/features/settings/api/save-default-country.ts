import type { TDefaultCountry } from '@herald/shared/settings/settings.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function saveDefaultCountry(country: string) {
  return api.put<TDefaultCountry>('/settings/default-country', { country });
}

export function useSaveDefaultCountry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDefaultCountry,
    onSuccess: (data) => queryClient.setQueryData(['settings', 'default-country'], data),
  });
}
