import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function savePhoneTemplate(values: string) {
  return api.put<{ values: string }>('/validation-template/phone', { values });
}

export function useSavePhoneTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePhoneTemplate,
    onSuccess: (data) => queryClient.setQueryData(['settings', 'phone-template'], data),
  });
}
