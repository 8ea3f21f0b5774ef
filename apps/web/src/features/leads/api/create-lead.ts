import type { ServerMessage } from '../../../lib/api-error.ts';
import type { TCreateLeadRequest, TLead } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';

/**
 * Only non-empty values are sent (spec section 5); `info` lists phones dropped by an ignored format.
 * The forms show a failure themselves (under the value it concerns), so nothing toasts it.
 */
export function createLead(body: TCreateLeadRequest) {
  return api.post<TLead & { info: ServerMessage[] }>(
    '/leads',
    { ...body, attributes: body.attributes.filter((a) => a.value.trim() !== '') },
    { toast: false },
  );
}

export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    meta: { handlesErrors: true },
    onSuccess: () => invalidateLeads(queryClient),
  });
}
