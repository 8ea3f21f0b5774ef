import type { TSaveSmsTemplateRequest, TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client.ts';

/**
 * Adds a template (no id) or updates one. A refusal is shown by the form under its field, so no
 * toast repeats it (one message per problem).
 */
export function saveTemplate({ id, ...body }: TSaveSmsTemplateRequest & { id?: number }) {
  return id === undefined
    ? api.post<TSmsTemplate>('/config/template/sms', body, { toast: false })
    : apiRequest<TSmsTemplate>(`/config/template/sms/${id}`, { method: 'PUT', body, toast: false });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTemplate,
    meta: { handlesErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }),
  });
}
