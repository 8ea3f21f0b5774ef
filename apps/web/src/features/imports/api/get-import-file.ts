import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { pollWhileRunning } from './get-import.ts';

export function getImportFile(id: number, signal?: AbortSignal) {
  return api.get<TImportFile>(`/import-files/${id}`, undefined, signal);
}

export const importFileQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['imports', 'file', id], queryFn: ({ signal }) => getImportFile(id, signal) });

/** The imported file the history's detail screen is about (`GET /import-files/{id}`), polled while it runs. */
export function useImportFile(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({
    ...importFileQueryOptions(id),
    enabled: id > 0,
    // Resumed or cancelled from this screen, it shows how far it is, as the progress modal does.
    refetchInterval: pollWhileRunning,
  });
}
