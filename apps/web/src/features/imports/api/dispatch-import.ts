import type { TImportFile } from '@herald/shared/imports/imports.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { dispatchedImport } from '../import-phase.ts';
import { importQueryKey } from './get-import.ts';

/** Runs a mapped import in the background (`POST /imports/{id}/dispatch`). */
export function dispatchImport(id: number) {
  return apiRequest<TImportFile>(`/imports/${id}/dispatch`, { method: 'POST', body: {}, toast: false });
}

export function useDispatchImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dispatchImport,
    onSuccess: (file) => {
      queryClient.setQueryData<TImportFile>(importQueryKey(file.id), (cached) => dispatchedImport(cached, file));
      void queryClient.invalidateQueries({ queryKey: ['imports', 'history'] });
    },
  });
}
