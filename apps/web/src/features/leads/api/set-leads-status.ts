import type { TBatchResult } from '@herald/shared/leads/leads.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { invalidateLeads } from './invalidate-leads.ts';

export const BULK_STATUSES = ['active', 'blacklisted', 'flagged'] as const;
export type TBulkStatus = (typeof BULK_STATUSES)[number];

/** Answers `info` and `errors` message lists, each shown as an alert (spec section 4). */
export function setLeadsStatus(body: { ids: number[]; status: TBulkStatus }) {
  return api.put<TBatchResult>('/leads/batch-status', body);
}

export function useSetLeadsStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setLeadsStatus, onSuccess: () => invalidateLeads(queryClient) });
}
