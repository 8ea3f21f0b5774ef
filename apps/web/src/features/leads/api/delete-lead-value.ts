import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';
import { valueKind } from './lead-values.ts';

/** Removes one value; the server refuses to remove a lead's last one. */
export function deleteLeadValue({ id, type }: { id: number; type: TAttributeType }) {
  return api.delete<TLead>(`/${valueKind(type)}/${id}`);
}

export function useDeleteLeadValue() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteLeadValue, onSuccess: () => invalidateLeads(queryClient) });
}
