import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';
import { valueKind } from './lead-values.ts';

export function updateLeadValue({ id, type, value }: { id: number; type: TAttributeType; value: string }) {
  return api.put<TLead>(`/${valueKind(type)}/${id}`, { value });
}

export function useUpdateLeadValue() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateLeadValue, onSuccess: () => invalidateLeads(queryClient) });
}
