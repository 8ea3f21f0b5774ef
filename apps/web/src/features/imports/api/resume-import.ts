import type { TSyncImport } from '@herald/shared/imports/imports.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { refreshImport } from './get-import.ts';

/** Resumes a failed import from what it already published (`PUT /sync-import/{id}`, spec section 9). */
export function resumeImport(id: number) {
  return apiRequest<TSyncImport>(`/sync-import/${id}`, { method: 'PUT', body: { status: 'pending' } });
}

export function useResumeImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeImport,
    // The import runs again: its own query starts polling, the history and its file screen show it running.
    onSettled: (_sync, _error, id) => refreshImport(queryClient, id),
  });
}
