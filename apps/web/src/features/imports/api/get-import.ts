import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isImportRunning } from '../import-phase.ts';

/** Spec section 9: an import's progress is polled every 3 seconds (events update it in between). */
export const IMPORT_POLL_MS = 3000;

export function getImport(id: number, signal?: AbortSignal) {
  return api.get<TImportFile>(`/imports/${id}`, undefined, signal);
}

export const importQueryKey = (id: number) => ['imports', 'one', id] as const;

export const importQueryOptions = (id: number) =>
  queryOptions({ queryKey: importQueryKey(id), queryFn: ({ signal }) => getImport(id, signal) });

/** A query's `refetchInterval` for an import: every 3 s while it runs, then no more. */
export const pollWhileRunning = (query: { state: { data?: TImportFile } }) =>
  query.state.data && isImportRunning(query.state.data) ? IMPORT_POLL_MS : false;

/** One import, polled while it runs. */
export function useImport(id: number) {
  return useQuery({ ...importQueryOptions(id), enabled: id > 0, refetchInterval: pollWhileRunning });
}

/** After a cancel or a resume (or its refusal): the import, its file screen and the history read it again. */
export function refreshImport(queryClient: QueryClient, id: number) {
  void queryClient.invalidateQueries({ queryKey: importQueryKey(id) });
  void queryClient.invalidateQueries({ queryKey: ['imports', 'file', id] });
  void queryClient.invalidateQueries({ queryKey: ['imports', 'history'] });
}
