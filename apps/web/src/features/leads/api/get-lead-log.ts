import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TLeadLogEntry } from '@herald/shared/leads/leads.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getLeadLog(id: number, page: number, limit: number, signal?: AbortSignal) {
  return api.get<{ data: TLeadLogEntry[]; meta: TPageMeta }>(`/leads/${id}/log`, { page, limit }, signal);
}

export const leadLogQueryOptions = (id: number, page: number, limit: number) =>
  queryOptions({
    queryKey: ['leads', 'one', id, 'log', { page, limit }],
    queryFn: ({ signal }) => getLeadLog(id, page, limit, signal),
  });

/** The Timeline: 20 entries a page by default (20 / 50 / 100). */
export function useLeadLog(id: number, page: number, limit: number) {
  return useQuery({ ...leadLogQueryOptions(id, page, limit), placeholderData: keepPreviousData });
}
