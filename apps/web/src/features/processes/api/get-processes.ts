import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getProcesses(signal?: AbortSignal): Promise<{ data: TProcess[] }> {
  return api.get<{ data: TProcess[] }>('/processes', undefined, signal);
}

export const processesQueryKey = ['processes'] as const;

export const processesQueryOptions = () =>
  queryOptions({ queryKey: processesQueryKey, queryFn: ({ signal }) => getProcesses(signal), staleTime: Infinity });

/** The header popover's list; `ProcessStatus` events keep it current without refetching. */
export function useProcesses() {
  return useQuery(processesQueryOptions());
}
