import type { TSaveSmsTemplateRequest, TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Adds a template (no id) or updates one. */
export function saveTemplate({ id, ...body }: TSaveSmsTemplateRequest & { id?: number }) {
  return id === undefined
    ? api.post<TSmsTemplate>('/config/template/sms', body)
    : api.put<TSmsTemplate>(`/config/template/sms/${id}`, body);
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
}
