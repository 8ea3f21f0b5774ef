import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importQueryKey, refreshImport } from './get-import.ts';

/** Cancels an import; what it already published is taken back (`POST /imports/{id}/cancel`). */
export function cancelImport(id: number) {
  return apiRequest<TImportFile>(`/imports/${id}/cancel`, { method: 'POST', body: {} });
}

export function useCancelImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelImport,
    onSuccess: (file) => queryClient.setQueryData(importQueryKey(file.id), file),
    // Refused too (it ended meanwhile): a screen read earlier catches up.
    onSettled: (_file, _error, id) => refreshImport(queryClient, id),
  });
}
