import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';
import { valueKind } from './lead-values.ts';

interface Input {
  leadId: number;
  attribute: { id: number; type: TAttributeType };
  value: string;
}

export function addLeadValue({ leadId, attribute, value }: Input) {
  return api.post<TLead>(`/leads/${leadId}/lead-attributes/${attribute.id}/${valueKind(attribute.type)}`, { value });
}

export function useAddLeadValue() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addLeadValue, onSuccess: () => invalidateLeads(queryClient) });
}
