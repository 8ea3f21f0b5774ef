import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface SourcesTotal {
  total_leads: number;
  total_today: number;
  duplicates_today: number;
}

export function getSourcesTotal(signal?: AbortSignal) {
  return api.get<SourcesTotal>('/sources/total', undefined, signal);
}

export const sourcesTotalQueryOptions = () =>
  queryOptions({ queryKey: ['sources', 'total'], queryFn: ({ signal }) => getSourcesTotal(signal) });

/** The /sources header: total leads, today and duplicates today over the whole team. */
export function useSourcesTotal() {
  return useQuery(sourcesTotalQueryOptions());
}
