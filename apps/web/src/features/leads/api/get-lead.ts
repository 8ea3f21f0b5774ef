import type { TLead } from '@herald/shared/leads/leads.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getLead(id: number, signal?: AbortSignal) {
  return api.get<TLead>(`/leads/${id}`, undefined, signal);
}

export const leadQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['leads', 'one', id], queryFn: ({ signal }) => getLead(id, signal) });

export function useLead(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...leadQueryOptions(id), enabled: id > 0 });
}
