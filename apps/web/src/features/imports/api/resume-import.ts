import type { TSyncImport } from '@herald/shared/imports/imports.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { importQueryKey } from './get-import.ts';

/** Resumes a failed import from what it already published (`PUT /sync-import/{id}`, spec section 9). */
export function resumeImport(id: number) {
  return apiRequest<TSyncImport>(`/sync-import/${id}`, { method: 'PUT', body: { status: 'pending' } });
}

export function useResumeImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeImport,
    // The import runs again: its own query starts polling, the history shows it running.
    onSuccess: (sync) => {
      void queryClient.invalidateQueries({ queryKey: importQueryKey(sync.id) });
      void queryClient.invalidateQueries({ queryKey: ['imports', 'history'] });
    },
  });
}
