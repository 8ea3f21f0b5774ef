import type { TBatchResult, TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';

/** One lead takes any status, several only a bulk one. Answers `info` and `errors` message lists, each shown as an alert (spec section 4). */
export function setLeadsStatus(body: { ids: number[]; status: TLeadStatus }) {
  return api.put<TBatchResult>('/leads/batch-status', body);
}

export function useSetLeadsStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setLeadsStatus, onSuccess: () => invalidateLeads(queryClient) });
}
